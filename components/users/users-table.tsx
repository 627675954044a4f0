"use client";

import Link from "next/link";
import { useState } from "react";
import { DataTable } from "@/components/ui/data-table";
import { ApiDocument } from "@/components/ui/api-document";
import { Panel } from "@/components/ui/panel";
import { formatView } from "@/lib/map-view";
import type { User } from "@/lib/types";
import { UserSummary } from "./user-details";

const time = (iso: string) => new Date(iso).toLocaleString();

/** The map, opened on a user where it last was, with its details and trail. */
const onMap = (u: User) =>
  `/map?view=${formatView(u.location.coordinates, 16)}&user=${encodeURIComponent(u._id)}`;

/**
 * The users table, and beside it a picked user's details (as the map shows them), a link to it on
 * the map, and the document the API answers for it.
 */
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
          picked={picked?._id}
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
          <p>
            <Link href={onMap(picked)} className="text-sm text-blue-700 underline">
              Show on the map
            </Link>
          </p>
          <UserSummary key={picked._id} u={picked} />
          <ApiDocument value={picked} />
        </Panel>
      )}
    </div>
  );
}
