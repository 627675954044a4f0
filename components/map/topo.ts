import type { FeatureCollection } from "geojson";
import { feature } from "topojson-client";
import type { GeometryCollection, Topology } from "topojson-specification";

/** A TopoJSON object of a data package as GeoJSON features, ready for Leaflet. */
export function topoFeatures(topology: unknown, object: string): FeatureCollection {
  const t = topology as Topology<Record<string, GeometryCollection>>;
  const collection = feature(t, t.objects[object]!) as unknown as FeatureCollection;
  for (const f of collection.features) {
    const g = f.geometry;
    const polygons = g.type === "Polygon" ? [g.coordinates] : g.type === "MultiPolygon" ? g.coordinates : [];
    for (const rings of polygons) for (const ring of rings) unwrap(ring);
  }
  return collection;
}

/**
 * Rings that cross the antimeridian (Russia, Fiji, Antarctica) jump from +180 to −180; drawn as
 * they are, they streak across the whole map. Continuing each jump past ±180 draws them whole.
 */
function unwrap(ring: number[][]): void {
  for (let i = 1; i < ring.length; i++) {
    const prev = ring[i - 1]![0]!;
    let lng = ring[i]![0]!;
    while (lng - prev > 180) lng -= 360;
    while (prev - lng > 180) lng += 360;
    ring[i]![0] = lng;
  }
}
