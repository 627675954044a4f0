"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { useMap } from "react-leaflet";
import { call } from "@/lib/api-client";
import { busiestArea } from "@/lib/map-view";
import type { Geofence, User } from "@/lib/types";

/** How many of the newest geofences and users decide where the map opens. */
const SAMPLE = 200;

/**
 * Opens the map on the data that matters when the address names no view: the busiest area of
 * the newest geofences and users (one continent, not the whole world when data is on two).
 */
export function StartView({ enabled }: { enabled: boolean }) {
  const map = useMap();
  const done = useRef(false);
  const sample = useQuery({
    queryKey: ["map-start", SAMPLE],
    enabled,
    staleTime: Infinity,
    queryFn: async () => {
      const [g, u] = await Promise.all([
        call<{ geofences: Geofence[] }>("GET", `/v1/geofences?limit=${SAMPLE}`),
        call<{ users: User[] }>("GET", `/v1/users?limit=${SAMPLE}`),
      ]);
      return busiestArea([
        ...g.geofences.map((f) => f.geometryCenter.coordinates),
        ...u.users.map((x) => x.location.coordinates),
      ]);
    },
  });
  useEffect(() => {
    const area = sample.data;
    if (done.current || !enabled || !area) return;
    done.current = true;
    map.fitBounds(
      [
        [area.south, area.west],
        [area.north, area.east],
      ],
      { maxZoom: 15, padding: [40, 40], animate: false },
    );
  }, [sample.data, enabled, map]);
  return null;
}
