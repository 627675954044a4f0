"use client";

import type { FeatureCollection } from "geojson";
import { GeoJSON, Pane, TileLayer } from "react-leaflet";
import { feature } from "topojson-client";
import type { GeometryCollection, Topology } from "topojson-specification";
import countries from "world-atlas/countries-50m.json";

/**
 * Country shapes (Natural Earth via world-atlas) under the tiles: when the tile server cannot
 * be reached (offline, firewalled), the map still shows where things are.
 */
const world = (() => {
  const topology = countries as unknown as Topology<{ countries: GeometryCollection }>;
  return feature(topology, topology.objects.countries) as unknown as FeatureCollection;
})();

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
