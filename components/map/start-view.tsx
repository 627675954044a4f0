"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { useMap } from "react-leaflet";
import { call } from "@/lib/api-client";
import { busiestArea } from "@/lib/map-view";
import type { Geofence, User } from "@/lib/types";
import { usePermissions } from "../ui/use-permissions";

/** How many of the newest geofences and users decide where the map opens. */
const SAMPLE = 200;

interface Imported {
  kind: string;
  bbox?: [number, number, number, number];
}

/**
 * Opens the map on the data that matters when the address names no view: the busiest area of
 * the newest geofences and users (one continent, not the whole world when data is on two), or,
 * before there are any, the area of the imported OpenStreetMap data (`importsOnly`: only that).
 */
export function StartView({ enabled, importsOnly = false }: { enabled: boolean; importsOnly?: boolean }) {
  const map = useMap();
  const done = useRef(false);
  // The view the map opened with: once it has moved (a search result, the person), it stays.
  const opened = useRef(`${map.getCenter().toString()} ${map.getZoom()}`);
  // So does a map the person has begun to work on without moving it (a click, a shape being
  // drawn): its shapes' points would move under the pointer.
  const touched = useRef(false);
  useEffect(() => {
    const touch = () => void (touched.current = true);
    map.on("mousedown keydown pm:drawstart", touch);
    return () => void map.off("mousedown keydown pm:drawstart", touch);
  }, [map]);
  const permissions = usePermissions();
  const sample = useQuery({
    queryKey: ["map-start", SAMPLE, importsOnly],
    enabled: enabled && permissions !== undefined,
    staleTime: Infinity,
    queryFn: async () => {
      // Either list may be closed to the role: the other, or the imports, still decide. The
      // users' is not asked of a role that may not list them (reviewers).
      const [g, u] = await Promise.allSettled([
        call<{ geofences: Geofence[] }>("GET", `/v1/geofences?limit=${SAMPLE}`),
        permissions?.users
          ? call<{ users: User[] }>("GET", `/v1/users?limit=${SAMPLE}`)
          : Promise.resolve({ users: [] as User[] }),
      ]);
      const area = busiestArea([
        ...(g.status === "fulfilled" ? g.value.geofences.map((f) => f.geometryCenter.coordinates) : []),
        ...(u.status === "fulfilled" ? u.value.users.map((x) => x.location.coordinates) : []),
      ]);
      // The playground keeps its world view once there is data of the service's own.
      if (area) return importsOnly ? null : area;
      const { imports } = await call<{ imports: Imported[] }>("GET", "/api/geodata");
      const box = (imports.find((i) => i.kind === "osm" && i.bbox) ?? imports.find((i) => i.bbox))?.bbox;
      return box ? { west: box[0], south: box[1], east: box[2], north: box[3] } : null;
    },
  });
  useEffect(() => {
    const area = sample.data;
    if (done.current || !enabled || !area) return;
    done.current = true;
    if (touched.current || `${map.getCenter().toString()} ${map.getZoom()}` !== opened.current) return;
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
