"use client";

import { useQuery } from "@tanstack/react-query";
import { call } from "@/lib/api-client";
import { CONFIDENCE, type LocationEvent } from "@/lib/types";
import { label } from "./words";

interface Outcome {
  probability: number;
  confidence: 1 | 2 | 3;
}

/** The class of events a verdict counts for (docs/confidence.md), in words. */
function where(event: LocationEvent, band: string): string {
  if (event.geofence) return `at this geofence's ${band === "edge" ? "edge" : "core"}`;
  if (event.place) return `at ${event.place.name}`;
  if (event.region) return `for ${event.region.name}`;
  return "like these";
}

/** What the confidence model will give later events like this one, for each verdict. */
export function EventPrediction({ event }: { event: LocationEvent }) {
  const prediction = useQuery({
    queryKey: ["prediction", event._id, event.verification],
    queryFn: () =>
      call<{
        prediction: { band: string; unverified: Outcome; accepted: Outcome; rejected: Outcome } | null;
      }>("GET", `/api/events/${event._id}/prediction`).then((r) => r.prediction),
  });
  const p = prediction.data;
  if (!p) return null;
  const show = (o: Outcome) => `${CONFIDENCE[o.confidence]} (${Math.round(o.probability * 100)}%)`;
  return (
    <div
      aria-label="Predicted confidence"
      role="note"
      className="rounded border border-slate-200 bg-white p-3 text-sm"
    >
      <p className="font-medium">
        Later {label(event.type).toLowerCase()} events {where(event, p.band)}, like this one:
      </p>
      <ul className="mt-1 grid grid-cols-3 gap-2">
        <li>
          <span className="block text-slate-500">if accepted</span>
          {show(p.accepted)}
        </li>
        <li>
          <span className="block text-slate-500">if rejected</span>
          {show(p.rejected)}
        </li>
        <li>
          <span className="block text-slate-500">if left unverified</span>
          {show(p.unverified)}
        </li>
      </ul>
    </div>
  );
}
