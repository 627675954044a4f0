"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { call } from "@/lib/api-client";
import type { Geofence, User } from "@/lib/types";
import { Panel } from "@/components/ui/panel";
import { DataTable } from "@/components/ui/data-table";
import { GeofenceTransfer } from "./geofence-transfer";

const time = (iso: string) => new Date(iso).toLocaleString();

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

function GeofencePanel({ g, onClose }: { g: Geofence; onClose: () => void }) {
  const users = useQuery({
    queryKey: ["geofence-users", g._id],
    queryFn: () =>
      call<{ users: User[] }>("GET", `/v1/geofences/${g._id}/users?limit=100`).then((r) => r.users),
  });
  return (
    <Panel label="Geofence details" title={g.description} onClose={onClose}>
      <pre className="overflow-x-auto rounded bg-slate-50 p-2 text-xs">
        {JSON.stringify({ ...g, geometry: g.geometry ? "…" : undefined }, null, 2)}
      </pre>
      <h3 className="font-medium">Users inside now</h3>
      {users.isLoading ? (
        <p className="text-sm text-slate-500">Loading…</p>
      ) : users.data?.length ? (
        <ul className="text-sm">
          {users.data.map((u) => (
            <li key={u._id}>{u.userId ?? u.deviceId}</li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-slate-500">Nobody is inside.</p>
      )}
    </Panel>
  );
}

export function UsersTable() {
  const [picked, setPicked] = useState<User | null>(null);
  return (
    <div className="flex h-full flex-col lg:flex-row">
      <div className="min-w-0 flex-1 overflow-y-auto p-6">
        <DataTable<User>
          title="Users"
          path="/api/users/table"
          field="users"
          defaultSort={{ sort: "updatedAt", dir: "desc" }}
          rowKey={(u) => u._id}
          onRow={setPicked}
          searchLabel="Search user ID, device ID or description"
          empty="No users yet: devices appear when they send POST /v1/track."
          columns={[
            { label: "User ID", sort: "userId", render: (u) => u.userId ?? "" },
            { label: "Device", sort: "deviceId", render: (u) => u.deviceId },
            { label: "Description", sort: "description", render: (u) => u.description ?? "" },
            { label: "Geofences", render: (u) => u.geofences.map((g) => g.description).join(", ") },
            { label: "Updated", sort: "updatedAt", render: (u) => time(u.updatedAt) },
          ]}
        />
      </div>
      {picked && (
        <Panel label="User details" title={picked.userId ?? picked.deviceId} onClose={() => setPicked(null)}>
          <pre className="overflow-x-auto rounded bg-slate-50 p-2 text-xs">
            {JSON.stringify(picked, null, 2)}
          </pre>
        </Panel>
      )}
    </div>
  );
}
