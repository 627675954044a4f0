import type { Metadata } from "next";
import { EventReview } from "@/components/events/event-review";
import { requireSession } from "@/server/auth/current";
import { can } from "@/server/auth/roles";
import { env } from "@/server/config/env";

export const metadata: Metadata = { title: "Events · Location platform" };

export default async function EventsPage() {
  const session = await requireSession("events:read");
  const { TILE_URL, TILE_ATTRIBUTION } = env();
  return (
    <EventReview
      tiles={{ url: TILE_URL, attribution: TILE_ATTRIBUTION }}
      canVerify={can(session.account.role, "events:verify")}
    />
  );
}
