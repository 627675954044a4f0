"use client";

import { CircleMarker, Polyline, Tooltip } from "react-leaflet";
import type { RouteAnswers } from "@/lib/types";
import { clockOf } from "./transit-legs";

/** The transit itinerary on the map: rides through their stops, walks dashed, times at the stops. */
export function TransitLayer({ routes }: { routes: RouteAnswers | null }) {
  const legs = routes?.transit?.legs ?? [];
  const latLng = ([lng, lat]: [number, number]) => [lat, lng] as [number, number];
  return (
    <>
      {legs.map((l, i) =>
        l.geometry ? (
          <Polyline
            key={`leg-${i}`}
            positions={l.geometry.coordinates.map(latLng)}
            pathOptions={
              l.mode === "walk"
                ? { color: "#64748b", weight: 3, dashArray: "4 6" }
                : { color: "#7c3aed", weight: 5, opacity: 0.85 }
            }
          >
            <Tooltip sticky>
              {l.mode === "walk"
                ? `walk ${l.distance.text}, ${clockOf(l.departureTime)}–${clockOf(l.arrivalTime)}`
                : `${l.route?.shortName || l.route?.longName} ${clockOf(l.departureTime)} ${l.from.name} → ${clockOf(l.arrivalTime)} ${l.to.name}`}
            </Tooltip>
          </Polyline>
        ) : null,
      )}
      {legs
        .filter((l) => l.mode === "transit")
        .flatMap((l, i) => [
          { key: `board-${i}`, place: l.from, label: `${clockOf(l.departureTime)} board at ${l.from.name}` },
          { key: `alight-${i}`, place: l.to, label: `${clockOf(l.arrivalTime)} get off at ${l.to.name}` },
        ])
        .map(({ key, place, label }) => (
          <CircleMarker
            key={key}
            center={[place.latitude, place.longitude]}
            radius={6}
            pathOptions={{ color: "#7c3aed", fillColor: "#ffffff", fillOpacity: 1, weight: 3 }}
          >
            <Tooltip>{label}</Tooltip>
          </CircleMarker>
        ))}
    </>
  );
}
