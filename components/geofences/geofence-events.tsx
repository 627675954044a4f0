"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { call } from "@/lib/api-client";
import { CONFIDENCE, type LocationEvent } from "@/lib/types";

/** A geofence's 10 most recent events (asked of the server by geofence), with their verdicts. */
export function GeofenceEvents({ id }: { id: string }) {
  const events = useQuery({
    queryKey: ["geofence-events", id],
    queryFn: () =>
      call<{ events: LocationEvent[]; meta: { hasMore?: boolean } }>(
        "GET",
        `/v1/events?limit=10&geofenceId=${encodeURIComponent(id)}`,
      ),
  });
  const list = events.data?.events ?? [];
  return (
    <section aria-label="Recent events" className="space-y-1">
      <h3 className="font-medium">Recent events</h3>
      {events.isLoading ? (
        <p className="text-sm text-slate-500">Loading…</p>
      ) : list.length === 0 ? (
        <p className="text-sm text-slate-500">No events yet.</p>
      ) : (
        <ul className="space-y-1 text-sm">
          {list.map((e) => (
            <li key={e._id}>
              <Link href={`/events?show=all&event=${e._id}`} className="hover:underline">
                {e.type.replace("user.", "").replaceAll("_", " ")} · {e.user.userId ?? e.user.deviceId} ·{" "}
                {CONFIDENCE[e.confidence]} · {new Date(e.createdAt).toLocaleString()}
                {e.verification === 1 ? " · accepted" : e.verification === -1 ? " · rejected" : ""}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
