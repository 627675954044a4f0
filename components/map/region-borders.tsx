"use client";

import type { FeatureCollection } from "geojson";
import { useEffect, useState } from "react";
import { GeoJSON } from "react-leaflet";
import { world } from "./basemap";
import { topoFeatures } from "./topo";

export const BORDER_COLOR = "#7c3aed";

/**
 * Country and US state borders over the map: the embedded regions that context, users and region
 * events use (docs/data.md; countries at 1:50m here, 1:10m on the server). The states load when
 * first shown; the countries are the basemap's.
 */
export function RegionBorders() {
  const [states, setStates] = useState<FeatureCollection | null>(null);
  useEffect(() => {
    let live = true;
    void import("us-atlas/states-10m.json").then((json) => {
      if (live) setStates(topoFeatures(json.default, "states"));
    });
    return () => {
      live = false;
    };
  }, []);
  return (
    <>
      <GeoJSON data={world} interactive={false} style={{ color: BORDER_COLOR, weight: 1.5, fill: false }} />
      {states && (
        <GeoJSON
          data={states}
          interactive={false}
          style={{ color: BORDER_COLOR, weight: 1, fill: false, dashArray: "4 3" }}
        />
      )}
    </>
  );
}
