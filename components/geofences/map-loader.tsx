"use client";

import dynamic from "next/dynamic";
import type { TileConfig } from "../map/basemap";

/** Leaflet needs a browser: the map is rendered on the client only. */
const GeofenceMap = dynamic(() => import("./geofence-map"), {
  ssr: false,
  loading: () => <p className="p-4 text-sm text-slate-500">Loading the map…</p>,
});

export function MapLoader(props: { tiles: TileConfig; canEdit: boolean; canSearch: boolean }) {
  return <GeofenceMap {...props} />;
}
