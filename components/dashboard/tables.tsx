"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { call } from "@/lib/api-client";
import type { Geofence, User } from "@/lib/types";
import { Panel } from "@/components/ui/panel";
import { CursorTable } from "./cursor-table";

const time = (iso: string) => new Date(iso).toLocaleString();

export function GeofencesTable() {
  const [picked, setPicked] = useState<Geofence | null>(null);
  return (
    <div className="flex h-full flex-col lg:flex-row">
      <div className="min-w-0 flex-1 overflow-y-auto p-6">
        <CursorTable<Geofence>
          title="Geofences"
          path="/v1/geofences"
          field="geofences"
          cursor={{ param: "createdBefore", of: (g) => g.createdAt }}
          rowKey={(g) => g._id}
          onRow={setPicked}
          empty="No geofences yet: draw one on the map."
          columns={[
            { label: "Description", value: (g) => g.description },
            { label: "Tag", value: (g) => g.tag ?? "" },
            { label: "External ID", value: (g) => g.externalId ?? "" },
            { label: "Type", value: (g) => g.type },
            { label: "Enabled", value: (g) => (g.enabled ? "yes" : "no") },
            { label: "Created", value: (g) => g.createdAt, render: (g) => time(g.createdAt) },
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
        <CursorTable<User>
          title="Users"
          path="/v1/users"
          field="users"
          cursor={{ param: "updatedBefore", of: (u) => u.updatedAt }}
          rowKey={(u) => u._id}
          onRow={setPicked}
          empty="No users yet: devices appear when they send POST /v1/track."
          columns={[
            { label: "User ID", value: (u) => u.userId ?? "" },
            { label: "Device", value: (u) => u.deviceId },
            { label: "Description", value: (u) => u.description ?? "" },
            { label: "Geofences", value: (u) => u.geofences.map((g) => g.description).join(", ") },
            { label: "Updated", value: (u) => u.updatedAt, render: (u) => time(u.updatedAt) },
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
