"use client";

import { GeoJSON, Pane, TileLayer } from "react-leaflet";
import countries from "world-atlas/countries-50m.json";
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

export function Basemap({ tiles }: { tiles: TileConfig }) {
  return (
    <>
      <Pane name="world" style={{ zIndex: 150 }}>
        <GeoJSON
          data={world}
          interactive={false}
          style={{ color: "#94a3b8", weight: 1, fillColor: "#e2e8f0", fillOpacity: 1 }}
        />
      </Pane>
      <TileLayer url={tiles.url} attribution={tiles.attribution} />
    </>
  );
}
