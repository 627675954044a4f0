"use client";

import type { FeatureCollection } from "geojson";
import { useEffect, useState } from "react";
import { GeoJSON } from "react-leaflet";
import { feature } from "topojson-client";
import type { GeometryCollection, Topology } from "topojson-specification";
import { unwrap } from "./basemap";

export const BORDER_COLOR = "#7c3aed";

/**
 * Country and US state borders over the map: the embedded regions that context, users and region
 * events use (docs/data.md; countries at 1:50m here, 1:10m on the server). Loaded when shown.
 */
export function RegionBorders() {
  const [data, setData] = useState<FeatureCollection[] | null>(null);
  useEffect(() => {
    let live = true;
    void Promise.all([import("world-atlas/countries-50m.json"), import("us-atlas/states-10m.json")]).then(
      ([countries, states]) => {
        const toFeatures = (json: unknown, object: string) => {
          const t = json as Topology<Record<string, GeometryCollection>>;
          const c = feature(t, t.objects[object]!) as unknown as FeatureCollection;
          for (const f of c.features) {
            const g = f.geometry;
            const polygons =
              g.type === "Polygon" ? [g.coordinates] : g.type === "MultiPolygon" ? g.coordinates : [];
            for (const rings of polygons) for (const ring of rings) unwrap(ring);
          }
          return c;
        };
        if (live) setData([toFeatures(countries.default, "countries"), toFeatures(states.default, "states")]);
      },
    );
    return () => {
      live = false;
    };
  }, []);
  if (!data) return null;
  return (
    <>
      {data.map((collection, i) => (
        <GeoJSON
          key={i}
          data={collection}
          interactive={false}
          style={{
            color: BORDER_COLOR,
            weight: i === 0 ? 1.5 : 1,
            fill: false,
            dashArray: i === 0 ? undefined : "4 3",
          }}
        />
      ))}
    </>
  );
}
