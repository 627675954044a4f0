"use client";

import Link from "next/link";
import { ApiDocument } from "@/components/ui/api-document";
import { Panel } from "@/components/ui/panel";
import type { Geofence } from "@/lib/types";
import { usePermissions } from "@/components/ui/use-permissions";
import { GeofenceFields, GeofenceMembers } from "./geofence-details";
import { GeofenceEvents } from "./geofence-events";

/**
 * The geofences table's panel: a geofence's fields, its recent events and the users inside it now
 * (as the map shows them), a link that opens the map on it, and the document the API answers for
 * it (its geometry left out).
 */
export function GeofencePanel({ g, onClose }: { g: Geofence; onClose: () => void }) {
  const listsUsers = usePermissions()?.users ?? false;
  return (
    <Panel label="Geofence details" title={g.description} onClose={onClose}>
      <p>
        <Link href={`/map?geofence=${encodeURIComponent(g._id)}`} className="text-sm text-blue-700 underline">
          Show on the map
        </Link>
      </p>
      <GeofenceFields g={g} />
      <GeofenceEvents id={g._id} />
      {listsUsers && <GeofenceMembers id={g._id} />}
      <ApiDocument value={{ ...g, geometry: g.geometry ? "…" : undefined }} />
    </Panel>
  );
}
