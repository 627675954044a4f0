"use client";

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { ErrorNote } from "@/components/ui/error-note";
import { call } from "@/lib/api-client";
import type { RouteAnswers } from "@/lib/types";
import { TransitLegs } from "./transit-legs";
import { type LngLat, latLngText } from "@/lib/position";

export const ROUTE_COLORS: Record<string, string> = {
  car: "#dc2626",
  bike: "#16a34a",
  foot: "#2563eb",
  transit: "#7c3aed",
};
const MODES = ["car", "bike", "foot", "transit"] as const;

const asText = (p: LngLat | null) => (p ? latLngText(p, 5) : "");

/**
 * The playground's route section: origin and destination (typed, or the point picked on the map
 * or chosen in the search box), modes and units (and for transit, when to leave); GET
 * /v1/route/distance with the route's line, each mode's distance and duration listed (or why it
 * has none), transit leg by leg with its times, and the lines given to the map.
 */
export function RoutePanel({
  point,
  onRoutes,
}: {
  point: LngLat | null;
  onRoutes: (routes: RouteAnswers | null) => void;
}) {
  const [origin, setOrigin] = useState("");
  const [destination, setDestination] = useState("");
  const [modes, setModes] = useState<string[]>(["car", "foot"]);
  const [units, setUnits] = useState("metric");
  const [leaveAt, setLeaveAt] = useState("");
  const transit = modes.includes("transit");
  const route = useMutation({
    mutationFn: () =>
      call<{ routes: RouteAnswers }>(
        "GET",
        `/v1/route/distance?${new URLSearchParams({
          origin,
          destination,
          modes: modes.join(","),
          units,
          geometry: "linestring",
          ...(transit && { details: "true" }),
          ...(transit && leaveAt && { departureTime: leaveAt }),
        })}`,
      ).then((r) => r.routes),
    onSuccess: (routes) => onRoutes(routes),
    onError: () => onRoutes(null),
  });
  return (
    <section aria-labelledby="route-title" className="space-y-2">
      <h2 id="route-title" className="text-lg font-semibold">
        Route distance
      </h2>
      <p className="text-sm text-slate-600">
        Pick points on the map (or choose a search result), then route over the imported roads and transit
        feeds.
      </p>
      <form
        className="space-y-2 text-sm"
        onSubmit={(e) => {
          e.preventDefault();
          route.mutate();
        }}
      >
        <PointField label="Origin" value={origin} set={setOrigin} point={point} />
        <PointField label="Destination" value={destination} set={setDestination} point={point} />
        <ModeFields modes={modes} setModes={setModes} units={units} setUnits={setUnits} />
        {transit && (
          <label className="flex items-center gap-2">
            <span className="text-slate-600">Leave at</span>
            <input
              type="datetime-local"
              value={leaveAt}
              onChange={(e) => setLeaveAt(e.target.value)}
              aria-label="Leave at"
              className="rounded border border-slate-300 px-2 py-0.5"
            />
            <span className="text-xs text-slate-500">the feed&apos;s local time; empty: now</span>
          </label>
        )}
        <button
          type="submit"
          disabled={!origin || !destination || !modes.length || route.isPending}
          className="rounded bg-slate-900 px-3 py-1.5 text-white disabled:opacity-50"
        >
          Route
        </button>
      </form>
      <ErrorNote error={route.error} />
      {route.data && <RouteList routes={route.data} />}
    </section>
  );
}

/** A point typed as "lat,lng", or taken from the point picked on the map. */
function PointField({
  label,
  value,
  set,
  point,
}: {
  label: string;
  value: string;
  set: (v: string) => void;
  point: LngLat | null;
}) {
  return (
    <label className="block space-y-0.5">
      <span className="block text-slate-600">{label}</span>
      <span className="flex gap-2">
        <input
          value={value}
          onChange={(e) => set(e.target.value)}
          placeholder="latitude, longitude"
          aria-label={label}
          className="min-w-0 flex-1 rounded border border-slate-300 px-2 py-1"
        />
        <button
          type="button"
          disabled={!point}
          onClick={() => set(asText(point))}
          className="rounded border border-slate-300 px-2 py-1 disabled:opacity-50"
          aria-label={`${label}: the picked point`}
        >
          Picked point
        </button>
      </span>
    </label>
  );
}

/** The modes asked for, and the units. */
function ModeFields({
  modes,
  setModes,
  units,
  setUnits,
}: {
  modes: string[];
  setModes: (m: string[]) => void;
  units: string;
  setUnits: (u: string) => void;
}) {
  return (
    <fieldset className="flex flex-wrap gap-3">
      <legend className="sr-only">Modes</legend>
      {MODES.map((m) => (
        <label key={m} className="flex items-center gap-1">
          <input
            type="checkbox"
            checked={modes.includes(m)}
            onChange={(e) => setModes(e.target.checked ? [...modes, m] : modes.filter((x) => x !== m))}
          />
          {m}
        </label>
      ))}
      <select
        aria-label="Units"
        value={units}
        onChange={(e) => setUnits(e.target.value)}
        className="rounded border border-slate-300 px-1"
      >
        <option value="metric">metric</option>
        <option value="imperial">imperial</option>
      </select>
    </fieldset>
  );
}

/** Each mode's distance and duration (or why it has none), transit leg by leg. */
function RouteList({ routes }: { routes: RouteAnswers }) {
  return (
    <dl aria-label="Routes" className="grid grid-cols-[5rem_1fr] gap-y-1 text-sm">
      {Object.entries(routes).map(([mode, r]) => (
        <div key={mode} className="contents">
          <dt className="font-medium" style={{ color: ROUTE_COLORS[mode] }}>
            {mode}
          </dt>
          <dd>
            {mode === "transit" ? (
              <TransitLegs answer={r} />
            ) : (
              (r.unavailable ?? [r.distance?.text, r.duration?.text].filter(Boolean).join(" · "))
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}
