"use client";

import { useMapEvents } from "react-leaflet";
import type { LngLat } from "@/lib/position";

/** Hands a click on the map over as a picked point. */
export function ClickToPick({ onPick }: { onPick: (point: LngLat) => void }) {
  useMapEvents({ click: (e) => onPick([e.latlng.lng, e.latlng.lat]) });
  return null;
}
