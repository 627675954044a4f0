"use client";

import { useQuery } from "@tanstack/react-query";
import { CircleMarker, Polyline, Tooltip } from "react-leaflet";
import { call } from "@/lib/api-client";

/** How many recent locations the map draws for the open user. */
export const TRAIL_LENGTH = 100;
export const TRAIL_COLOR = "#7c3aed";

export interface TrailPoint {
  /** [lng, lat] */
  coordinates: [number, number];
  accuracy: number;
  recordedAt: string;
}

/** The open user's recent locations, newest first (refreshed with the users on the map). */
export function useTrail(userId: string) {
  return useQuery({
    queryKey: ["users", "trail", userId],
    refetchInterval: 5000,
    queryFn: () =>
      call<{ locations: TrailPoint[] }>(
        "GET",
        `/api/users/${encodeURIComponent(userId)}/trail?limit=${TRAIL_LENGTH}`,
      ).then((r) => r.locations),
  });
}

/** Where the open user has been: a line through its recent locations, each with its time. */
export function UserTrail({ userId }: { userId: string }) {
  const trail = useTrail(userId);
  const points = trail.data ?? [];
  if (points.length === 0) return null;
  const positions = points.map((p) => [p.coordinates[1], p.coordinates[0]] as [number, number]);
  return (
    <>
      <Polyline
        positions={positions}
        pathOptions={{ color: TRAIL_COLOR, weight: 3, opacity: 0.8 }}
        pmIgnore
      />
      {points.map((p, i) => (
        <CircleMarker
          key={`${p.recordedAt}-${i}`}
          center={positions[i]!}
          radius={i === 0 ? 5 : 3}
          pathOptions={{ color: TRAIL_COLOR, fillColor: "#fff", fillOpacity: 1, weight: 2 }}
          pmIgnore
        >
          <Tooltip>
            {new Date(p.recordedAt).toLocaleString()} · ±{Math.round(p.accuracy)} m
          </Tooltip>
        </CircleMarker>
      ))}
    </>
  );
}
