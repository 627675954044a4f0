"use client";

import { useState } from "react";
import { useMapEvents } from "react-leaflet";

const clamp = (v: number, i: number) =>
  i % 2 === 0 ? Math.max(-180, Math.min(180, v)) : Math.max(-90, Math.min(90, v));

/**
 * The map's view as the imported-data routes take it (`bbox=minLng,minLat,maxLng,maxLat`, on
 * the globe, to `digits` decimals) and its zoom, again after every move.
 */
export function useImportView(digits: number): { bbox: string; zoom: number } {
  const [view, setView] = useState<{ bbox: string; zoom: number } | null>(null);
  const map = useMapEvents({ moveend: () => setView(viewOf()) });
  const viewOf = () => {
    const b = map.getBounds();
    return {
      bbox: [b.getWest(), b.getSouth(), b.getEast(), b.getNorth()]
        .map((v, i) => clamp(v, i).toFixed(digits))
        .join(","),
      zoom: map.getZoom(),
    };
  };
  return view ?? viewOf();
}
