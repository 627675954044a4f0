"use client";

import { useState } from "react";
import { DataTable } from "@/components/ui/data-table";
import type { Geofence } from "@/lib/types";
import { GeofencePanel } from "./geofence-panel";
import { GeofenceTransfer } from "./geofence-transfer";

const time = (iso: string) => new Date(iso).toLocaleString();

/** The geofences table, with import and export, and a geofence's details beside it. */
export function GeofencesTable({ canEdit }: { canEdit: boolean }) {
  const [picked, setPicked] = useState<Geofence | null>(null);
  return (
    <div className="flex h-full flex-col lg:flex-row">
      <div className="min-w-0 flex-1 overflow-y-auto p-6">
        <DataTable<Geofence>
          title="Geofences"
          path="/api/geofences/table"
          field="geofences"
          defaultSort={{ sort: "createdAt", dir: "desc" }}
          rowKey={(g) => g._id}
          onRow={setPicked}
          picked={picked?._id}
          searchLabel="Search description, tag or external ID"
          empty="No geofences yet: draw one on the map, or import a file."
          toolbar={<GeofenceTransfer canEdit={canEdit} />}
          columns={[
            { label: "Description", sort: "description", render: (g) => g.description },
            { label: "Tag", sort: "tag", render: (g) => g.tag ?? "" },
            { label: "External ID", sort: "externalId", render: (g) => g.externalId ?? "" },
            { label: "Type", sort: "type", render: (g) => g.type },
            { label: "Enabled", sort: "enabled", render: (g) => (g.enabled ? "yes" : "no") },
            { label: "Created", sort: "createdAt", render: (g) => time(g.createdAt) },
          ]}
        />
      </div>
      {picked && <GeofencePanel g={picked} onClose={() => setPicked(null)} />}
    </div>
  );
}
