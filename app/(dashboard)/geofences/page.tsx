import type { Metadata } from "next";
import { GeofencesTable } from "@/components/geofences/geofences-table";
import { requireSession } from "@/server/auth/current";
import { can } from "@/server/auth/roles";

export const metadata: Metadata = { title: "Geofences · Location platform" };

export default async function GeofencesPage() {
  const session = await requireSession("geofences:read");
  return <GeofencesTable canEdit={can(session.account.role, "geofences:write")} />;
}
