"use client";

import { useEffect, useState } from "react";
import { GeoJSON, Pane, TileLayer, useMap } from "react-leaflet";
import countries from "world-atlas/countries-50m.json";
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
 * The map's background: the tile server's tiles when it answers; when it does not (offline,
 * firewalled), the bundled countries and, at street zoom, the imported streets with their
 * names, so analysts can draw and reviewers can judge without internet.
 */
export function Basemap({ tiles }: { tiles: TileConfig }) {
  const [state, setState] = useState<"unknown" | "loading" | "failing">("unknown");
  const offline = state === "failing";
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
      <TileLayer
        url={tiles.url}
        attribution={tiles.attribution}
        eventHandlers={{
          tileload: () => setState("loading"),
          // Tiles that fail before any loaded: the server cannot be reached from this browser.
          tileerror: () => setState((s) => (s === "loading" ? s : "failing")),
        }}
      />
    </>
  );
}

/** Says in the map's corner that the tiles are missing and what is drawn instead. */
function OfflineNote() {
  const map = useMap();
  useEffect(() => {
    const text = "Tiles unreachable: streets from the imported OpenStreetMap data";
    map.attributionControl?.addAttribution(text);
    return () => void map.attributionControl?.removeAttribution(text);
  }, [map]);
  return null;
}
