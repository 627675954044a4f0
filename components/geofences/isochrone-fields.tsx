"use client";

import L from "../map/leaflet-global";
import { useEffect, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { call, errorText } from "@/lib/api-client";
import type { Geofence } from "@/lib/types";

const MODES = [
  ["car", "Car"],
  ["foot", "Foot"],
  ["bike", "Bike"],
  ["truck", "Truck (as car)"],
  ["motorbike", "Motorbike (as car)"],
] as const;

interface IsochroneAnswer {
  isochrones: { features: GeoJSON.Feature[] };
  unavailable?: string;
}

/**
 * An isochrone geofence's own fields: the minutes of travel and the mode (the form sends them
 * as `minutes` and `mode`), with the area they reach drawn on the map around the center as a
 * preview (GET /v1/route/isochrone); the center is the marker, dragged to move it.
 */
export function IsochroneFields({
  marker,
  map,
  g,
  param,
}: {
  marker: L.Marker;
  map: L.Map | null;
  g?: Geofence;
  param?: string;
}) {
  const [minutes, setMinutes] = useState(g?.isochrone?.minutes ?? 10);
  const [mode, setMode] = useState(g?.isochrone?.mode ?? "car");
  const [center, setCenter] = useState(() => marker.getLatLng());
  useEffect(() => {
    const moved = () => setCenter(marker.getLatLng());
    marker.on("dragend pm:dragend", moved);
    return () => void marker.off("dragend pm:dragend", moved);
  }, [marker]);
  const note = useIsochronePreview(map, center, minutes, mode);
  return (
    <fieldset className="space-y-2 rounded border border-violet-200 bg-violet-50 p-2">
      <legend className="px-1 text-sm font-medium">Reachable area (isochrone)</legend>
      <p className="text-xs text-slate-600">
        The area reachable from the marker, drawn from the imported roads. Drag the marker to move it.
      </p>
      <label className="block space-y-1 text-sm font-medium">
        <span>Minutes of travel</span>
        <input
          name="minutes"
          type="number"
          min={5}
          max={60}
          value={minutes}
          onChange={(e) => setMinutes(Number(e.target.value))}
          aria-invalid={param === "radius"}
          className="w-full rounded border border-slate-300 px-2 py-1.5 text-sm"
        />
      </label>
      <label className="block space-y-1 text-sm font-medium">
        <span>Mode</span>
        <select
          name="mode"
          value={mode}
          onChange={(e) => setMode(e.target.value)}
          aria-invalid={param === "mode"}
          className="w-full rounded border border-slate-300 px-2 py-1.5 text-sm"
        >
          {MODES.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </label>
      {note && (
        <p role="status" className="text-xs text-slate-700">
          {note}
        </p>
      )}
    </fieldset>
  );
}

/**
 * The area reachable from `center` drawn on the map, dashed, while the form is open; what to say
 * meanwhile (drawing, no roads there, an error), or nothing.
 */
function useIsochronePreview(map: L.Map | null, center: L.LatLng, minutes: number, mode: string) {
  const valid = minutes >= 5 && minutes <= 60;
  const preview = useQuery({
    queryKey: ["isochrone-preview", center.lat, center.lng, minutes, mode],
    queryFn: () =>
      call<IsochroneAnswer>(
        "GET",
        `/v1/route/isochrone?origin=${center.lat},${center.lng}&minutes=${minutes}&mode=${mode}`,
      ),
    enabled: valid,
  });
  useEffect(() => {
    const features = preview.data?.isochrones.features;
    if (!map || !features?.length) return;
    const layer = L.geoJSON(features, {
      style: { color: "#7c3aed", weight: 2, fillOpacity: 0.15, dashArray: "4 4" },
      interactive: false,
    }).addTo(map);
    return () => void layer.remove();
  }, [map, preview.data]);
  const note = preview.isError
    ? errorText(preview.error)
    : (preview.data?.unavailable ?? (preview.isFetching ? "Drawing the reachable area…" : undefined));
  return note;
}
