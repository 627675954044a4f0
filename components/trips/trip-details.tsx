"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Button } from "@/components/ui/button";
import { ErrorNote } from "@/components/ui/error-note";
import { call } from "@/lib/api-client";
import { EVENT_TYPE_NAMES } from "@/lib/types";
import { ACTIVE, type BoardTrip, delayText, etaText } from "./types";

interface TimelineEvent {
  _id: string;
  type: string;
  createdAt: string;
  trip?: { eta?: { duration: number } };
}

/** One trip: its figures, legs and timeline; Complete and Cancel for analysts and admins. */
export function TripDetails({
  trip,
  canWrite,
  onClose,
}: {
  trip: BoardTrip;
  canWrite: boolean;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const events = useQuery({
    queryKey: ["trips", "events", trip._id],
    refetchInterval: 3000,
    queryFn: () =>
      call<{ events: TimelineEvent[] }>("GET", `/api/trips/${trip._id}/events`).then((r) => r.events),
  });
  const end = useMutation({
    mutationFn: (status: "completed" | "canceled") =>
      call("PATCH", `/v1/trips/${trip._id}/update`, { status }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ["trips"] }),
  });
  return (
    <section
      aria-label={`Trip ${trip.externalId}`}
      className="space-y-3 rounded border border-slate-200 p-3 text-sm"
    >
      <div className="flex items-center justify-between">
        <h2 className="text-lg font-semibold">{trip.externalId}</h2>
        <Button size="sm" onClick={onClose}>
          Close
        </Button>
      </div>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
        <dt className="text-slate-500">Status</dt>
        <dd>{trip.status}</dd>
        <dt className="text-slate-500">ETA</dt>
        <dd>{etaText(trip)}</dd>
        <dt className="text-slate-500">Delay</dt>
        <dd>{delayText(trip)}</dd>
        <dt className="text-slate-500">User</dt>
        <dd>{trip.userId ?? trip.deviceId}</dd>
        <dt className="text-slate-500">Last seen</dt>
        <dd>{trip.user ? new Date(trip.user.updatedAt).toLocaleTimeString() : "never tracked"}</dd>
      </dl>
      {trip.legs && (
        <ol aria-label="Legs" className="list-decimal pl-5">
          {trip.legs.map((l) => (
            <li key={l._id}>
              {l.destination.type} · {l.status}
            </li>
          ))}
        </ol>
      )}
      {canWrite && ACTIVE.includes(trip.status) && (
        <div className="flex gap-2">
          <Button tone="accept" size="sm" disabled={end.isPending} onClick={() => end.mutate("completed")}>
            Complete
          </Button>
          <Button tone="reject" size="sm" disabled={end.isPending} onClick={() => end.mutate("canceled")}>
            Cancel trip
          </Button>
        </div>
      )}
      <ErrorNote error={end.error} />
      <h3 className="font-medium">Timeline</h3>
      <ol aria-label="Timeline" className="space-y-1">
        {(events.data ?? []).map((e) => (
          <li key={e._id} className="flex justify-between gap-2">
            <span>{(EVENT_TYPE_NAMES as Record<string, string>)[e.type] ?? e.type}</span>
            <span className="text-slate-500">
              {new Date(e.createdAt).toLocaleTimeString()}
              {e.trip?.eta ? ` · ${e.trip.eta.duration} min` : ""}
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}
