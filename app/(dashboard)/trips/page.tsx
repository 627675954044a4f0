import type { Metadata } from "next";
import { TripsBoard } from "@/components/trips/trips-board";
import { requireSession } from "@/server/auth/current";
import { can } from "@/server/auth/roles";
import { env } from "@/server/config/env";

export const metadata: Metadata = { title: "Trips · Location platform" };

export default async function TripsPage() {
  const session = await requireSession("trips:read");
  const { TILE_URL, TILE_ATTRIBUTION } = env();
  return (
    <TripsBoard
      tiles={{ url: TILE_URL, attribution: TILE_ATTRIBUTION }}
      canWrite={can(session.account.role, "trips:write")}
    />
  );
}
