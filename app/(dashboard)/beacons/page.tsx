import type { Metadata } from "next";
import { BeaconsBoard } from "@/components/beacons/beacons-board";
import { requireSession } from "@/server/auth/current";
import { can } from "@/server/auth/roles";
import { env } from "@/server/config/env";

export const metadata: Metadata = { title: "Beacons · Location platform" };

export default async function BeaconsPage() {
  const session = await requireSession("geofences:read");
  const { TILE_URL, TILE_ATTRIBUTION } = env();
  return (
    <BeaconsBoard
      tiles={{ url: TILE_URL, attribution: TILE_ATTRIBUTION }}
      canWrite={can(session.account.role, "geofences:write")}
    />
  );
}
