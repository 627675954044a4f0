import type { Metadata } from "next";
import { GeofencesTable } from "@/components/dashboard/tables";
import { requireSession } from "@/server/auth/current";

export const metadata: Metadata = { title: "Geofences · Location platform" };

export default async function GeofencesPage() {
  await requireSession("geofences:read");
  return <GeofencesTable />;
}
