"use client";

import { useEffect, useState } from "react";
import { GeoJSON, Pane, TileLayer, useMap } from "react-leaflet";
import countries from "world-atlas/countries-50m.json";
import L from "./leaflet-global";
import { ImportedStreets } from "./imported-streets";
import { topoFeatures } from "./topo";

/**
 * Country shapes (Natural Earth via world-atlas) under the tiles: when the tile server cannot
 * be reached (offline, firewalled), the map still shows where things are.
 */
export const world = topoFeatures(countries, "countries");

export interface TileConfig {
  url: string;
  attribution: string;
}

/**
 * The maps' own zoom limit: without a tile layer (offline) Leaflet knows none, and the user
 * markers' clustering refuses a map without one.
 */
export const MAX_ZOOM = 19;

/** With no tile loaded this long, the tile server counts as unreachable (it may hang, not fail). */
export const TILE_TIMEOUT_MS = 3000;
/** While unreachable, one tile is tried this often; the tile layer comes back when it loads. */
export const TILE_RETRY_MS = 120_000;

/**
 * When this page last found the tile server unreachable: maps opened later (another dashboard
 * page) start offline instead of waiting for tiles again, until the next retry is due.
 */
let unreachableSince: number | null = null;

type TileState = "waiting" | "loading" | "unreachable";

/**
 * The map's background: the tile server's tiles when it answers; when it does not (offline,
 * firewalled, or a host that accepts connections and never answers), the bundled countries
 * and the imported roads (main roads zoomed out, every street with names at street zoom), so
 * analysts can draw and reviewers can judge without internet. An unreachable server is not
 * asked again on every pan: the tile layer is removed, and one tile is tried every 2 minutes.
 */
export function Basemap({ tiles }: { tiles: TileConfig }) {
  const map = useMap();
  const [state, setState] = useState<TileState>(() =>
    unreachableSince !== null && Date.now() - unreachableSince < TILE_RETRY_MS ? "unreachable" : "waiting",
  );
  const offline = state === "unreachable";

  useEffect(() => {
    if (state === "waiting") {
      const timer = setTimeout(() => setState((s) => (s === "waiting" ? "unreachable" : s)), TILE_TIMEOUT_MS);
      return () => clearTimeout(timer);
    }
    if (state === "loading") {
      unreachableSince = null;
      return;
    }
    unreachableSince ??= Date.now();
    const due = Math.max(0, unreachableSince + TILE_RETRY_MS - Date.now());
    let retry: ReturnType<typeof setTimeout>;
    const schedule = (ms: number) =>
      (retry = setTimeout(
        () =>
          void tryOneTile(tiles.url, map).then((loaded) => {
            if (loaded) setState("loading");
            else {
              unreachableSince = Date.now();
              schedule(TILE_RETRY_MS);
            }
          }),
        ms,
      ));
    schedule(due);
    return () => clearTimeout(retry);
  }, [state, tiles.url, map]);

  return (
    <>
      <Pane name="world" style={{ zIndex: 150 }}>
        <GeoJSON
          data={world}
          interactive={false}
          style={{ color: "#94a3b8", weight: 1, fillColor: "#e2e8f0", fillOpacity: 1 }}
        />
      </Pane>
      {offline && <ImportedStreets />}
      {offline && <OfflineNote />}
      {!offline && (
        <TileLayer
          url={tiles.url}
          maxZoom={MAX_ZOOM}
          attribution={tiles.attribution}
          eventHandlers={{
            tileload: () => setState("loading"),
            // Tiles that fail before any loaded: the server cannot be reached from this browser.
            tileerror: () => setState((s) => (s === "loading" ? s : "unreachable")),
          }}
        />
      )}
    </>
  );
}

/** Loads the tile under the map's centre; whether it came within TILE_TIMEOUT_MS. */
function tryOneTile(url: string, map: L.Map): Promise<boolean> {
  const zoom = Math.max(0, Math.min(18, Math.round(map.getZoom())));
  const at = map.project(map.getCenter(), zoom).divideBy(256).floor();
  const src = L.Util.template(url, { s: "a", z: zoom, x: at.x, y: at.y, r: "" });
  return new Promise((resolve) => {
    const img = new Image();
    const done = (loaded: boolean) => {
      clearTimeout(timer);
      img.onload = img.onerror = null;
      // An answer that never comes is dropped with the image.
      if (!loaded) img.src = "";
      resolve(loaded);
    };
    const timer = setTimeout(() => done(false), TILE_TIMEOUT_MS);
    img.onload = () => done(true);
    img.onerror = () => done(false);
    img.src = src;
  });
}

/** Says in the map's corner that the tiles are missing and what is drawn instead. */
function OfflineNote() {
  const map = useMap();
  useEffect(() => {
    const text = "Tiles unreachable: roads from the imported OpenStreetMap data";
    map.attributionControl?.addAttribution(text);
    return () => void map.attributionControl?.removeAttribution(text);
  }, [map]);
  return null;
}
