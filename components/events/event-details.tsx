"use client";

import dynamic from "next/dynamic";
import { Button } from "@/components/ui/button";
import { CONFIDENCE, type LocationEvent, type Place } from "@/lib/types";
import type { TileConfig } from "../map/basemap";
import { EventPrediction } from "./event-prediction";
import { PlacePicker } from "./place-picker";
import { VERDICT, type Verdict, label, subject, when } from "./words";

const EventMap = dynamic(() => import("./event-map"), {
  ssr: false,
  loading: () => <div className="h-64 rounded bg-slate-100" />,
});

/** One event as a reviewer judges it: where, when, how sure, and the verdict buttons. */
export function EventDetails({
  event,
  tiles,
  canVerify,
  onDecide,
}: {
  event: LocationEvent;
  tiles: TileConfig;
  canVerify: boolean;
  onDecide: (verdict: Verdict, place?: Place) => void;
}) {
  const received = Math.abs(Date.parse(event.createdAt) - Date.parse(event.actualCreatedAt)) > 60_000;
  return (
    <>
      <div className="flex flex-wrap items-center gap-3">
        <h2 className="text-xl font-semibold">
          {label(event.type)} {subject(event)}
        </h2>
        <span className="rounded bg-slate-100 px-2 py-0.5 text-sm">
          {CONFIDENCE[event.confidence]} confidence
        </span>
        <span className="rounded bg-slate-100 px-2 py-0.5 text-sm">{VERDICT[event.verification]}</span>
      </div>
      <EventMap event={event} tiles={tiles} />
      <dl className="grid grid-cols-[9rem_1fr] gap-y-1 text-sm">
        <dt className="text-slate-500">User</dt>
        <dd>{event.user.userId ?? event.user.deviceId}</dd>
        <dt className="text-slate-500">Accuracy</dt>
        <dd>±{Math.round(event.locationAccuracy)} m</dd>
        <dt className="text-slate-500">When</dt>
        <dd>{when(event.createdAt)}</dd>
        {received && (
          <>
            <dt className="text-slate-500">Received</dt>
            <dd>{when(event.actualCreatedAt)}</dd>
          </>
        )}
        {event.duration !== undefined && (
          <>
            <dt className="text-slate-500">Duration</dt>
            <dd>{event.duration.toFixed(1)} min</dd>
          </>
        )}
        {event.geofence && (
          <>
            <dt className="text-slate-500">Geofence</dt>
            <dd>
              {event.geofence.description}
              {event.geofence.tag !== undefined && (
                <span className="text-slate-500">{` (${event.geofence.tag}/${event.geofence.externalId ?? ""})`}</span>
              )}
            </dd>
          </>
        )}
        {event.place && (
          <>
            <dt className="text-slate-500">Place</dt>
            <dd>
              {event.place.name} ({event.place.categories.join(", ")})
            </dd>
          </>
        )}
        {event.verifiedPlace && (
          <>
            <dt className="text-slate-500">Verified place</dt>
            <dd>{event.verifiedPlace.name}</dd>
          </>
        )}
        {event.region && (
          <>
            <dt className="text-slate-500">Region</dt>
            <dd>
              {event.region.name}
              {event.region.code && event.region.code !== event.region.name ? ` (${event.region.code})` : ""}
            </dd>
          </>
        )}
        <dt className="text-slate-500">Event ID</dt>
        <dd className="font-mono text-xs leading-5">{event._id}</dd>
      </dl>
      {event.geofence && <EventPrediction event={event} />}
      {canVerify && event.type === "user.entered_place" && event.place && (
        <PlacePicker key={event._id} event={event} onVerify={(place) => onDecide(1, place)} />
      )}
      {canVerify ? (
        <div className="flex flex-wrap gap-2">
          <Button tone="accept" onClick={() => onDecide(1)}>
            Accept (A)
          </Button>
          <Button tone="reject" onClick={() => onDecide(-1)}>
            Reject (R)
          </Button>
          <Button onClick={() => onDecide(0)}>Unverify (U)</Button>
        </div>
      ) : (
        <p className="text-sm text-slate-500">Your role can look at events but not verify them.</p>
      )}
    </>
  );
}
