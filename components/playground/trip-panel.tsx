"use client";

import type L from "leaflet";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { ErrorNote } from "@/components/ui/error-note";
import { call } from "@/lib/api-client";
import { type LngLat, latLngText, parseLatLngText } from "@/lib/position";
import { traceFixes } from "@/lib/trace-file";

/** What the trip panel shows on the map: lines, numbered stops, a trace's raw fixes, a place to look at. */
export interface TripView {
  lines: LngLat[][];
  stops?: { at: LngLat; label: string }[];
  fixes?: LngLat[];
  focus?: LngLat;
}

interface Step {
  instruction: string;
  distance: { text: string };
  maneuver: { type: string; location: { latitude: number; longitude: number } };
}
interface Line {
  coordinates: LngLat[];
}
interface DirectionsAnswer {
  routes: {
    distance: { text: string };
    duration: { text: string };
    geometry: Line;
    legs: { steps: Step[] }[];
  }[];
  unavailable?: string;
}
interface OptimizeAnswer {
  route: { distance?: { text: string }; duration?: { text: string }; geometry?: Line; unavailable?: string };
  locations: { latitude: number; longitude: number; originalIndex: number }[];
}
interface MatchAnswer {
  matchedPath: { coordinates: LngLat; originalIndex: number }[];
  distance: { text: string };
  duration: { text: string };
  stretches: { geometry: Line }[];
  unavailable?: string;
}

const input = "w-full rounded border border-slate-300 px-2 py-1";
const select = "rounded border border-slate-300 px-2 py-1";
const button = "rounded bg-slate-900 px-3 py-1.5 text-white disabled:opacity-50";

/** The stops typed one "lat,lng" per line, in order; the ones that do not parse are left out. */
const stopsOf = (text: string) =>
  text
    .split("\n")
    .map((l) => parseLatLngText(l))
    .filter((p): p is LngLat => !!p);

/**
 * The playground's trip section: turn-by-turn directions through stops (each step listed, a click
 * flies the map there), the best order of the stops between the first and the last (numbered on
 * the map), and a GPX or CSV trace matched onto the roads (its fixes and the matched line).
 */
export function TripPanel({
  point,
  map,
  onView,
}: {
  point: LngLat | null;
  map: L.Map | null;
  onView: (view: TripView | null) => void;
}) {
  const [stops, setStops] = useState("");
  const [mode, setMode] = useState("car");
  const [lang, setLang] = useState("en");
  return (
    <section aria-labelledby="trip-title" className="space-y-2 text-sm">
      <h2 id="trip-title" className="text-lg font-semibold">
        Directions, optimize, match
      </h2>
      <label className="block space-y-0.5">
        <span className="block text-slate-600">Stops, one &quot;lat,lng&quot; per line, in order</span>
        <textarea
          value={stops}
          onChange={(e) => setStops(e.target.value)}
          rows={4}
          aria-label="Stops"
          className={`${input} font-mono text-xs`}
        />
      </label>
      <div className="flex flex-wrap items-center gap-2">
        <button
          type="button"
          disabled={!point}
          onClick={() =>
            point && setStops((s) => `${s.trim() ? `${s.trim()}\n` : ""}${latLngText(point, 6)}`)
          }
          className="rounded border border-slate-300 px-2 py-1 disabled:opacity-50"
        >
          Add picked point
        </button>
        <select
          value={mode}
          onChange={(e) => setMode(e.target.value)}
          aria-label="Trip mode"
          className={select}
        >
          {["car", "bike", "foot"].map((m) => (
            <option key={m}>{m}</option>
          ))}
        </select>
        <select
          value={lang}
          onChange={(e) => setLang(e.target.value)}
          aria-label="Language"
          className={select}
        >
          {[
            ["en", "English"],
            ["de", "Deutsch"],
            ["fr", "Français"],
          ].map(([code, name]) => (
            <option key={code} value={code}>
              {name}
            </option>
          ))}
        </select>
      </div>
      <Directions stops={stopsOf(stops)} mode={mode} lang={lang} map={map} onView={onView} />
      <Optimize stops={stopsOf(stops)} mode={mode} onView={onView} />
      <Match mode={mode} onView={onView} />
    </section>
  );
}

/** Directions through the stops: the route on the map and its steps, each a button that flies there. */
function Directions(props: {
  stops: LngLat[];
  mode: string;
  lang: string;
  map: L.Map | null;
  onView: (v: TripView | null) => void;
}) {
  const { stops, mode, lang, map, onView } = props;
  const directions = useMutation({
    mutationFn: () =>
      call<DirectionsAnswer>(
        "GET",
        `/v1/route/directions?${new URLSearchParams({
          locations: stops.map((s) => latLngText(s)).join("|"),
          mode,
          lang,
          geometry: "linestring",
        })}`,
      ),
    onSuccess: (d) =>
      onView(
        d.routes[0]
          ? {
              lines: [d.routes[0].geometry.coordinates],
              stops: stops.map((at, i) => ({ at, label: String(i + 1) })),
            }
          : null,
      ),
  });
  const route = directions.data?.routes[0];
  return (
    <div className="space-y-1">
      <button
        type="button"
        className={button}
        disabled={stops.length < 2 || directions.isPending}
        onClick={() => directions.mutate()}
      >
        Directions
      </button>
      <ErrorNote error={directions.error ?? directions.data?.unavailable} />
      {route && (
        <div aria-label="Directions" className="space-y-1">
          <p className="font-medium">
            {route.distance.text} · {route.duration.text}
          </p>
          <ol className="space-y-0.5">
            {route.legs.flatMap((leg, l) =>
              leg.steps.map((s, i) => (
                <li key={`${l}-${i}`}>
                  <button
                    type="button"
                    className="w-full rounded px-1 text-left hover:bg-slate-100"
                    onClick={() => {
                      const at: LngLat = [s.maneuver.location.longitude, s.maneuver.location.latitude];
                      map?.flyTo([at[1], at[0]], 18);
                      onView({
                        lines: [route.geometry.coordinates],
                        stops: stops.map((p, k) => ({ at: p, label: String(k + 1) })),
                        focus: at,
                      });
                    }}
                  >
                    {s.instruction} <span className="text-slate-500">{s.distance.text}</span>
                  </button>
                </li>
              )),
            )}
          </ol>
        </div>
      )}
    </div>
  );
}

/** The best order of the stops between the first and the last, numbered on the map in that order. */
function Optimize({
  stops,
  mode,
  onView,
}: {
  stops: LngLat[];
  mode: string;
  onView: (v: TripView | null) => void;
}) {
  const optimize = useMutation({
    mutationFn: () =>
      call<OptimizeAnswer>(
        "GET",
        `/v1/route/optimize?${new URLSearchParams({
          locations: stops.map((s) => latLngText(s)).join("|"),
          mode,
          geometry: "linestring",
        })}`,
      ),
    onSuccess: (o) =>
      onView({
        lines: o.route.geometry ? [o.route.geometry.coordinates] : [],
        stops: o.locations.map((l, i) => ({
          at: [l.longitude, l.latitude],
          label: `${i + 1} (stop ${l.originalIndex + 1})`,
        })),
      }),
  });
  const o = optimize.data;
  return (
    <div className="space-y-1">
      <button
        type="button"
        className={button}
        disabled={stops.length < 3 || stops.length > 10 || optimize.isPending}
        onClick={() => optimize.mutate()}
      >
        Optimize order
      </button>
      <ErrorNote error={optimize.error ?? o?.route.unavailable} />
      {o && !o.route.unavailable && (
        <p aria-label="Optimized order">
          Order: {o.locations.map((l) => l.originalIndex + 1).join(" → ")} · {o.route.distance?.text} ·{" "}
          {o.route.duration?.text}
        </p>
      )}
    </div>
  );
}

/** A GPX or CSV trace matched onto the roads: its fixes as dots and the matched line. */
function Match({ mode, onView }: { mode: string; onView: (v: TripView | null) => void }) {
  const match = useMutation({
    mutationFn: async (file: File) => {
      const fixes = traceFixes(file.name, await file.text());
      const answer = await call<MatchAnswer>("POST", "/v1/route/match", {
        path: fixes.map((f) => ({ coordinates: f.at, ...(f.accuracy && { accuracy: f.accuracy }) })),
        mode,
        geometry: "linestring",
      });
      return { fixes, answer };
    },
    onSuccess: ({ fixes, answer }) =>
      onView({ lines: answer.stretches.map((s) => s.geometry.coordinates), fixes: fixes.map((f) => f.at) }),
  });
  const m = match.data;
  return (
    <div className="space-y-1">
      <label className="block space-y-0.5">
        <span className="block text-slate-600">Match a trace (GPX or CSV)</span>
        <input
          type="file"
          accept=".gpx,.csv,.txt"
          aria-label="Trace file"
          onChange={(e) => {
            const file = e.target.files?.[0];
            if (file) match.mutate(file);
          }}
        />
      </label>
      <ErrorNote error={match.error ?? m?.answer.unavailable} />
      {m && !m.answer.unavailable && (
        <p aria-label="Matched trace">
          {m.answer.matchedPath.length} of {m.fixes.length} fixes matched · {m.answer.distance.text} ·{" "}
          {m.answer.duration.text}
          {m.answer.stretches.length > 1 && ` · broken into ${m.answer.stretches.length} stretches`}
        </p>
      )}
    </div>
  );
}
