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
  const collection = feature(topology, topology.objects.countries) as unknown as FeatureCollection;
  for (const f of collection.features) {
    const g = f.geometry;
    const polygons = g.type === "Polygon" ? [g.coordinates] : g.type === "MultiPolygon" ? g.coordinates : [];
    for (const rings of polygons) for (const ring of rings) unwrap(ring);
  }
  return collection;
})();

/**
 * Rings that cross the antimeridian (Russia, Fiji, Antarctica) jump from +180 to −180; drawn as
 * they are, they streak across the whole map. Continuing each jump past ±180 draws them whole.
 */
export function unwrap(ring: number[][]): void {
  for (let i = 1; i < ring.length; i++) {
    const prev = ring[i - 1]![0]!;
    let lng = ring[i]![0]!;
    while (lng - prev > 180) lng -= 360;
    while (prev - lng > 180) lng += 360;
    ring[i]![0] = lng;
  }
}

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
