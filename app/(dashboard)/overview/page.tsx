import type { Metadata } from "next";
import { OverviewBoard } from "@/components/overview/overview-board";
import { requireSession } from "@/server/auth/current";
import { can } from "@/server/auth/roles";

export const metadata: Metadata = { title: "Overview · Location platform" };

export default async function OverviewPage() {
  const session = await requireSession("overview:read");
  const role = session.account.role;
  return (
    <div className="h-full overflow-y-auto p-4">
      <OverviewBoard
        links={{
          users: can(role, "users:list"),
          events: can(role, "events:read"),
          trips: can(role, "trips:read"),
          webhooks: can(role, "webhooks:manage"),
          settings: can(role, "keys:manage"),
        }}
      />
    </div>
  );
}
