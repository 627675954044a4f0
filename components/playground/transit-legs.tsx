"use client";

import type { RouteAnswer } from "@/lib/types";

/** "2026-06-01T08:02:29+01:00" → "08:02": the feed's local clock, as the timetable shows it. */
export const clockOf = (iso?: string) => iso?.slice(11, 16) ?? "";

/**
 * A transit answer's itinerary, leg by leg with its times: walks (to and from stops, between
 * stops) and rides (route, headsign, stops on); or walking the whole way, marked as such; or
 * why no trip serves the journey, with the walking distance instead.
 */
export function TransitLegs({ answer }: { answer: RouteAnswer }) {
  if (answer.unavailable) {
    return (
      <p className="text-slate-600">
        {answer.unavailable}
        {answer.walking && ` (walking: ${answer.walking.distance.text} · ${answer.walking.duration.text})`}
      </p>
    );
  }
  return (
    <div className="space-y-1">
      <p>
        {[answer.distance?.text, answer.duration?.text].filter(Boolean).join(" · ")} — leave{" "}
        {clockOf(answer.departureTime)}, arrive {clockOf(answer.arrivalTime)}
        {answer.walkingOnly && " (walking is sooner than any trip)"}
      </p>
      {answer.legs && (
        <ol aria-label="Transit legs" className="space-y-0.5 border-l-2 border-violet-300 pl-2 text-xs">
          {answer.legs.map((l, i) => (
            <li key={i}>
              <span className="font-mono">
                {clockOf(l.departureTime)}–{clockOf(l.arrivalTime)}
              </span>{" "}
              {l.mode === "walk" ? (
                <>
                  walk {l.distance.text}
                  {l.to.name ? ` to ${l.to.name}` : " to the destination"}
                </>
              ) : (
                <>
                  <span className="font-medium text-violet-700">
                    {l.route?.shortName || l.route?.longName}
                    {l.trip?.headsign && ` ${l.trip.headsign}`}
                  </span>{" "}
                  from {l.from.name} to {l.to.name} ({l.stops} stop{l.stops === 1 ? "" : "s"}
                  {l.seated ? ", staying seated" : ""})
                </>
              )}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
