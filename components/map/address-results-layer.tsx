"use client";

import L from "leaflet";
import { Marker, Tooltip } from "react-leaflet";
import type { GeoAddress } from "@/lib/types";
import { addressPoint } from "./address-search";
import { leafletPoint } from "@/lib/position";

const COLOR = "#7c3aed";

/**
 * HTML markers (not SVG circles: a circle thousands of kilometres off screen at street zoom is
 * drawn by the browser as a fill over the whole map).
 */
const icon = (size: number) =>
  L.divIcon({
    className: "",
    html: `<span style="display:block;width:${size}px;height:${size}px;border-radius:9999px;background:${COLOR};border:2px solid white;box-shadow:0 0 2px #0008"></span>`,
    iconSize: [size, size],
    iconAnchor: [size / 2, size / 2],
  });
const SMALL = icon(12);
const LARGE = icon(18);

/** The answers of the map's search box, the chosen one larger and labelled. */
export function AddressResultsLayer({
  results,
  chosen,
}: {
  results: GeoAddress[];
  chosen: GeoAddress | null;
}) {
  return (
    <>
      {results.map((a, i) => {
        const point = addressPoint(a);
        if (!point) return null;
        const isChosen = a === chosen;
        return (
          <Marker
            key={`${a.formattedAddress}-${i}-${isChosen}`}
            position={leafletPoint(point)}
            icon={isChosen ? LARGE : SMALL}
            zIndexOffset={isChosen ? 1000 : 0}
          >
            <Tooltip permanent={isChosen} direction="top" offset={[0, -8]}>
              {a.formattedAddress} ({a.layer}, {a.confidence})
            </Tooltip>
          </Marker>
        );
      })}
    </>
  );
}
