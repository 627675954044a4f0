"use client";

import { useQuery } from "@tanstack/react-query";
import { Panel } from "@/components/ui/panel";
import { call } from "@/lib/api-client";
import type { Geofence, User } from "@/lib/types";
import { usePermissions } from "@/components/ui/use-permissions";

/** A geofence's fields and the users inside it now. */
export function GeofencePanel({ g, onClose }: { g: Geofence; onClose: () => void }) {
  const listsUsers = usePermissions()?.users ?? false;
  const users = useQuery({
    queryKey: ["geofence-users", g._id],
    enabled: listsUsers,
    queryFn: () =>
      call<{ users: User[] }>("GET", `/v1/geofences/${g._id}/users?limit=100`).then((r) => r.users),
  });
  return (
    <Panel label="Geofence details" title={g.description} onClose={onClose}>
      <pre className="overflow-x-auto rounded bg-slate-50 p-2 text-xs">
        {JSON.stringify({ ...g, geometry: g.geometry ? "…" : undefined }, null, 2)}
      </pre>
      {listsUsers && <h3 className="font-medium">Users inside now</h3>}
      {!listsUsers ? null : users.isLoading ? (
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
