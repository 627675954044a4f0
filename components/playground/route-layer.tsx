"use client";

import L from "leaflet";
import { useEffect } from "react";
import { Polyline, Tooltip, useMap } from "react-leaflet";
import type { RouteAnswers } from "@/lib/types";
import { ROUTE_COLORS } from "./route-panel";

/** Each routed mode's line on the map, in its colour; the map moves to show them (transit's legs too). */
export function RouteLayer({ routes }: { routes: RouteAnswers | null }) {
  const map = useMap();
  // New routes: the map shows them all.
  useEffect(() => {
    const points = Object.values(routes ?? {}).flatMap((r) =>
      [
        ...(r.geometry?.coordinates ?? []),
        ...(r.legs ?? []).flatMap((l) => l.geometry?.coordinates ?? []),
      ].map(([lng, lat]) => [lat, lng] as [number, number]),
    );
    if (points.length) map.fitBounds(L.latLngBounds(points), { padding: [40, 40] });
  }, [routes, map]);
  if (!routes) return null;
  return (
    <>
      {Object.entries(routes).map(([mode, r]) =>
        r.geometry ? (
          <Polyline
            key={mode}
            positions={r.geometry.coordinates.map(([lng, lat]) => [lat, lng] as [number, number])}
            pathOptions={{ color: ROUTE_COLORS[mode] ?? "#334155", weight: 4, opacity: 0.8 }}
          >
            <Tooltip sticky>
              {mode}: {r.distance?.text} · {r.duration?.text}
            </Tooltip>
          </Polyline>
        ) : null,
      )}
    </>
  );
}
