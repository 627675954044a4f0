"use client";

import { useQuery } from "@tanstack/react-query";
import dynamic from "next/dynamic";
import { useState } from "react";
import { ErrorNote } from "@/components/ui/error-note";
import { Select, TextField } from "@/components/ui/field";
import { call } from "@/lib/api-client";
import type { TileConfig } from "../map/basemap";
import { TripDetails } from "./trip-details";
import { type BoardTrip, STATUS_COLOR, delayText, etaText } from "./types";

const TripsMap = dynamic(() => import("./trips-map"), {
  ssr: false,
  loading: () => <p className="p-4 text-sm text-slate-500">Loading the map…</p>,
});

const STATUS_FILTERS = [
  ["", "Under way"],
  ["pending", "Pending"],
  ["completed", "Completed"],
  ["canceled", "Canceled"],
  ["expired", "Expired"],
  ["pending,started,approaching,arrived,completed,canceled,expired", "All"],
] as const;

/**
 * Trips (docs/trips.md): the trips under way on the map with where each user is, their road ETA,
 * delay, status and legs, filtered on the server and refreshed every few seconds; one opened
 * shows its road left, its legs and its timeline, and may be completed or canceled.
 */
export function TripsBoard({ tiles, canWrite }: { tiles: TileConfig; canWrite: boolean }) {
  const [status, setStatus] = useState("");
  const [delayed, setDelayed] = useState(false);
  const [tag, setTag] = useState("");
  const [open, setOpen] = useState<string | null>(null);
  const query = new URLSearchParams({
    ...(status && { status }),
    ...(delayed && { delayed: "true" }),
    ...(tag.trim() && { destinationGeofenceTag: tag.trim() }),
  }).toString();
  const trips = useQuery({
    queryKey: ["trips", query],
    refetchInterval: 3000,
    queryFn: () => call<{ trips: BoardTrip[]; meta: { hasMore?: boolean } }>("GET", `/api/trips?${query}`),
  });
  const list = trips.data?.trips ?? [];
  const opened = list.find((t) => t._id === open) ?? null;
  return (
    <div className="grid h-full grid-cols-1 lg:grid-cols-[minmax(0,28rem)_1fr]">
      <section
        aria-labelledby="trips-title"
        className="flex min-h-0 flex-col gap-3 overflow-y-auto border-r border-slate-200 p-4"
      >
        <h1 id="trips-title" className="text-2xl font-semibold">
          Trips
        </h1>
        <div className="flex flex-wrap items-center gap-2">
          <Select label="Status" value={status} onChange={(e) => setStatus(e.target.value)}>
            {STATUS_FILTERS.map(([value, label]) => (
              <option key={label} value={value}>
                {label}
              </option>
            ))}
          </Select>
          <TextField
            label="Destination tag"
            value={tag}
            onChange={(e) => setTag(e.target.value)}
            className="w-36"
          />
          <label className="flex items-center gap-1 text-sm">
            <input type="checkbox" checked={delayed} onChange={(e) => setDelayed(e.target.checked)} /> Delayed
          </label>
        </div>
        <ErrorNote error={trips.error} boxed />
        <TripList trips={list} open={open} onOpen={setOpen} loading={trips.isPending} />
        {trips.data?.meta.hasMore && (
          <p className="text-xs text-slate-500">Showing the 200 most recently updated.</p>
        )}
        {opened && <TripDetails trip={opened} canWrite={canWrite} onClose={() => setOpen(null)} />}
      </section>
      <div className="min-h-80">
        <TripsMap trips={list} open={open} onOpen={setOpen} tiles={tiles} />
      </div>
    </div>
  );
}

function TripList(props: {
  trips: BoardTrip[];
  open: string | null;
  onOpen: (id: string) => void;
  loading: boolean;
}) {
  if (props.loading) return <p className="text-sm text-slate-500">Loading trips…</p>;
  if (!props.trips.length) return <p className="text-sm text-slate-500">No trip matches.</p>;
  return (
    <ul aria-label="Trips" className="divide-y divide-slate-200 rounded border border-slate-200">
      {props.trips.map((t) => (
        <li key={t._id}>
          <button
            type="button"
            aria-current={t._id === props.open ? "true" : undefined}
            onClick={() => props.onOpen(t._id)}
            className={`w-full px-3 py-2 text-left text-sm hover:bg-slate-50 ${t._id === props.open ? "bg-blue-50" : ""}`}
          >
            <span className="flex items-center justify-between gap-2">
              <span className="font-medium">{t.externalId}</span>
              <span className={`rounded px-2 py-0.5 text-xs ${STATUS_COLOR[t.status] ?? ""}`}>
                {t.status}
              </span>
            </span>
            <span className="block text-slate-600">
              {t.userId ?? t.deviceId} → {t.destinationGeofenceExternalId ?? "a point"} · {t.mode}
            </span>
            <span className="block text-slate-600">
              ETA {etaText(t)} · {delayText(t)}
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}
