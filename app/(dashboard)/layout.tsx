import type { ReactNode } from "react";
import { Nav } from "@/components/dashboard/nav";
import { Providers } from "@/components/dashboard/providers";
import { requireSession } from "@/server/auth/current";
import { can } from "@/server/auth/roles";

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const session = await requireSession();
  const role = session.account.role;
  const links = [
    { href: "/overview", label: "Overview", show: can(role, "overview:read") },
    { href: "/map", label: "Map", show: can(role, "geofences:read") },
    { href: "/geofences", label: "Geofences", show: can(role, "geofences:read") },
    { href: "/beacons", label: "Beacons", show: can(role, "geofences:read") },
    { href: "/users", label: "Users", show: can(role, "users:list") },
    { href: "/events", label: "Events", show: can(role, "events:read") },
    { href: "/trips", label: "Trips", show: can(role, "trips:read") },
    { href: "/playground", label: "Playground", show: can(role, "context:read") },
    { href: "/keys", label: "Keys & accounts", show: can(role, "keys:manage") },
    { href: "/webhooks", label: "Webhooks", show: can(role, "webhooks:manage") },
    { href: "/settings", label: "Settings", show: can(role, "keys:manage") },
  ].filter((l) => l.show);
  return (
    <Providers>
      <div className="flex h-screen flex-col">
        <Nav links={links} email={session.account.email} role={role} live={session.live} />
        <div className="min-h-0 flex-1">{children}</div>
      </div>
    </Providers>
  );
}
