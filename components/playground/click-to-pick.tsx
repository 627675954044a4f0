"use client";

import { useMapEvents } from "react-leaflet";

/** Hands a click on the map over as a picked point. */
export function ClickToPick({ onPick }: { onPick: (lat: number, lng: number) => void }) {
  useMapEvents({ click: (e) => onPick(e.latlng.lat, e.latlng.lng) });
  return null;
}
