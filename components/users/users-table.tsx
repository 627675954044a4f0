"use client";

import { useState } from "react";
import { DataTable } from "@/components/ui/data-table";
import { Panel } from "@/components/ui/panel";
import type { User } from "@/lib/types";

const time = (iso: string) => new Date(iso).toLocaleString();

/** The users table, and a user's details beside it. */
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
