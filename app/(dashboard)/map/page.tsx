import type { Metadata } from "next";
import { MapLoader } from "@/components/geofences/map-loader";
import { requireSession } from "@/server/auth/current";
import { can } from "@/server/auth/roles";
import { env } from "@/server/config/env";

export const metadata: Metadata = { title: "Map · Location platform" };

export default async function MapPage() {
  const session = await requireSession("geofences:read");
  const { TILE_URL, TILE_ATTRIBUTION } = env();
  return (
    <MapLoader
      tiles={{ url: TILE_URL, attribution: TILE_ATTRIBUTION }}
      canEdit={can(session.account.role, "geofences:write")}
      canSearch={can(session.account.role, "context:read")}
    />
  );
}
