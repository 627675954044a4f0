"use client";

import L from "leaflet";
import { useEffect } from "react";
import { CircleMarker, Marker, Polyline, Tooltip, useMap } from "react-leaflet";
import { leafletPoint } from "@/lib/position";
import type { TripView } from "./trip-panel";

const TRIP_COLOR = "#7c3aed";

/** A numbered stop's marker: its label's first word, as text (a label may hold what a person typed). */
function stopIcon(label: string) {
  const html = document.createElement("div");
  html.className =
    "flex h-6 min-w-6 items-center justify-center rounded-full border-2 border-white bg-violet-700 px-1 text-xs font-bold text-white shadow";
  html.textContent = label.split(" ")[0] ?? "";
  return L.divIcon({ className: "", html, iconSize: [24, 24], iconAnchor: [12, 12] });
}

/** The trip panel's answer on the map: the lines, the numbered stops, a trace's fixes; the map moves to show them. */
export function TripLayer({ view }: { view: TripView | null }) {
  const map = useMap();
  useEffect(() => {
    if (!view || view.focus) return;
    const points = [...view.lines.flat(), ...(view.stops ?? []).map((s) => s.at), ...(view.fixes ?? [])].map(
      leafletPoint,
    );
    if (points.length) map.fitBounds(L.latLngBounds(points), { padding: [40, 40] });
  }, [view, map]);
  if (!view) return null;
  return (
    <>
      {view.fixes?.map((f, i) => (
        <CircleMarker
          key={`fix-${i}`}
          center={leafletPoint(f)}
          radius={3}
          pathOptions={{ color: "#64748b", weight: 1, fillOpacity: 0.6 }}
        />
      ))}
      {view.lines.map((line, i) => (
        <Polyline
          key={`line-${i}`}
          positions={line.map(leafletPoint)}
          pathOptions={{ color: TRIP_COLOR, weight: 5, opacity: 0.8 }}
        />
      ))}
      {view.stops?.map((s, i) => (
        <Marker key={`stop-${i}`} position={leafletPoint(s.at)} icon={stopIcon(s.label)}>
          <Tooltip>{s.label}</Tooltip>
        </Marker>
      ))}
      {view.focus && (
        <CircleMarker
          center={leafletPoint(view.focus)}
          radius={10}
          pathOptions={{ color: "#f59e0b", weight: 3, fill: false }}
        />
      )}
    </>
  );
}
