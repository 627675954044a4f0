"use client";

import { useEffect, useRef } from "react";
import { useMap } from "react-leaflet";
import type { Box } from "@/lib/map-view";

export interface MapView {
  box: Box;
  /** [lng, lat] */
  center: [number, number];
  zoom: number;
}

/** Tells the page where the map is: once ready, then after every move or zoom. */
export function ViewTracker({ onView }: { onView: (view: MapView) => void }) {
  const map = useMap();
  const latest = useRef(onView);
  useEffect(() => {
    latest.current = onView;
  });
  useEffect(() => {
    const report = () => {
      const b = map.getBounds();
      const c = map.getCenter();
      latest.current({
        box: { south: b.getSouth(), west: b.getWest(), north: b.getNorth(), east: b.getEast() },
        center: [c.lng, c.lat],
        zoom: map.getZoom(),
      });
    };
    map.whenReady(report);
    map.on("moveend", report);
    return () => void map.off("moveend", report);
  }, [map]);
  return null;
}
