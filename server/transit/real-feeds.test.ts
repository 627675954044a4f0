import { describe, expect, it } from "vitest";
import { REAL_FEEDS_DIR, realFeedRows, realFeedTexts, realFeedsPresent } from "../../scripts/real-feeds";
import { type Feed, parseFeed } from "./gtfs";
import { type Itinerary, latestEarliestArrival } from "./raptor";
import { type Timetable, buildTimetable, runsOn, serviceDayStart } from "./timetable";

/**
 * Real operators' feeds the project was not tuned on (`npm run feeds`: the MTA's Long Island Rail
 * Road and subway, from a registry package; skipped, with a warning, when absent). Random journeys
 * between their stops; every change in every answer is checked against transfers.txt as the
 * reference reads it, computed here on its own from the file's rows: the most specific rule
 * (trip pair, trip and route, trip, route pair, route, stops), a station's rule on its platforms
 * and between them, type 3 never. Before issue 29, the railroad's trip-to-trip rows undid a
 * stop's 300 s minimum and the subway's platforms ignored their stations' 180 s.
 */

type Row = Record<string, string>;

/** A small seeded generator: the same journeys every run. */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** Seconds the reference asks to change at a stop, or at least between two platforms: Infinity when forbidden. */
function requiredSeconds(
  rules: Row[],
  parent: Map<string, string>,
  at: {
    fromStop: string;
    toStop: string;
    fromTrip: string;
    toTrip: string;
    fromRoute: string;
    toRoute: string;
  },
): number {
  const stopMatches = (ruleStop: string, stop: string) => ruleStop === stop || ruleStop === parent.get(stop);
  let best: { rank: number; seconds: number } | undefined;
  for (const r of rules) {
    if (!stopMatches(r.from_stop_id ?? "", at.fromStop) || !stopMatches(r.to_stop_id ?? "", at.toStop))
      continue;
    if (r.from_trip_id && r.from_trip_id !== at.fromTrip) continue;
    if (r.to_trip_id && r.to_trip_id !== at.toTrip) continue;
    if (r.from_route_id && r.from_route_id !== at.fromRoute) continue;
    if (r.to_route_id && r.to_route_id !== at.toRoute) continue;
    const trips = (r.from_trip_id ? 1 : 0) + (r.to_trip_id ? 1 : 0);
    const routes = (r.from_route_id ? 1 : 0) + (r.to_route_id ? 1 : 0);
    const level = trips === 2 ? 5 : trips === 1 ? (routes ? 4 : 3) : routes === 2 ? 2 : routes;
    const own = r.from_stop_id === at.fromStop && r.to_stop_id === at.toStop ? 1 : 0;
    const rank = level * 2 + own;
    const type = Number(r.transfer_type || 0);
    const seconds = type === 3 ? Infinity : type === 2 ? Number(r.min_transfer_time) : 0;
    if (!best || rank > best.rank) best = { rank, seconds };
    else if (rank === best.rank) best.seconds = Math.max(best.seconds, seconds);
  }
  return best?.seconds ?? 0;
}

/** A service date (yyyymmdd) with the most trips running. */
function busiestDate(feed: Feed, tt: Timetable): number {
  const dates = new Set<number>();
  for (const s of tt.services) {
    for (const d of s.added) dates.add(d);
    if (s.start)
      for (let d = s.start; d <= Math.min(s.end, s.start + 100); d++) if (d % 100 <= 31) dates.add(d);
  }
  let best = 0;
  let most = -1;
  for (const d of dates) {
    const n = feed.trips.filter((t) => runsOn(feed.services.get(t.serviceId)!, d)).length;
    if (n > most) [best, most] = [d, n];
  }
  return best;
}

interface Checked {
  journeys: number;
  changes: number;
  ruled: number;
  tooShort: string[];
}

function checkFeed(name: "lirr" | "subway", queries: number): Checked {
  const texts = realFeedTexts(name);
  const feed = parseFeed(texts);
  const tt = buildTimetable(feed);
  const rules = realFeedRows(name, "transfers");
  const parent = new Map(feed.stops.flatMap((s) => (s.parent ? [[s.id, s.parent] as const] : [])));
  const platforms = tt.stops
    .map((s, i) => [s, i] as const)
    .filter(([s]) => feed.stops.find((f) => f.id === s.id)!.type === 0);
  const date = busiestDate(feed, tt);
  const start = serviceDayStart(tt.timezone, date);
  const next = random(29);
  const done: Checked = { journeys: 0, changes: 0, ruled: 0, tooShort: [] };
  for (let q = 0; q < queries; q++) {
    const from = platforms[Math.floor(next() * platforms.length)]![1];
    const to = platforms[Math.floor(next() * platforms.length)]![1];
    if (from === to) continue;
    const leave = start + 6 * 3600 + Math.floor(next() * 14 * 3600);
    const it: Itinerary | undefined = latestEarliestArrival(
      tt,
      [{ stop: from, seconds: 0 }],
      [{ stop: to, seconds: 0 }],
      leave,
    );
    if (!it) continue;
    done.journeys++;
    const rides = it.legs.flatMap((l) => (l.kind === "ride" ? [l] : []));
    for (let i = 1; i < rides.length; i++) {
      const [a, b] = [rides[i - 1]!, rides[i]!];
      if (b.seated) continue;
      done.changes++;
      const at = {
        fromStop: tt.stops[a.toStop]!.id,
        toStop: tt.stops[b.fromStop]!.id,
        fromTrip: feed.trips[tt.tripTemplate[a.trip]!]!.id,
        toTrip: feed.trips[tt.tripTemplate[b.trip]!]!.id,
        fromRoute: tt.routes[tt.tripRoute[a.trip]!]!.id,
        toRoute: tt.routes[tt.tripRoute[b.trip]!]!.id,
      };
      const required = requiredSeconds(rules, parent, at);
      if (required > 0) done.ruled++;
      const gap = b.departure - a.arrival;
      if (gap < required) {
        done.tooShort.push(
          `${at.fromTrip} → ${at.toTrip} at ${at.fromStop}/${at.toStop}: ${gap} s, ${required} s needed`,
        );
      }
    }
  }
  return done;
}

describe.runIf(realFeedsPresent())("real feeds: every change as transfers.txt allows it", () => {
  it("on the Long Island Rail Road: trip-to-trip rules for those trips only, the stops' 300 s for the others", () => {
    const r = checkFeed("lirr", 400);
    expect(r.journeys).toBeGreaterThan(200);
    expect(r.ruled).toBeGreaterThan(20);
    expect(r.tooShort).toEqual([]);
  }, 120_000);

  it("on the subway: a station's 180 s on and between its platforms", () => {
    const r = checkFeed("subway", 300);
    expect(r.journeys).toBeGreaterThan(200);
    expect(r.ruled).toBeGreaterThan(50);
    expect(r.tooShort).toEqual([]);
  }, 180_000);
});

if (!realFeedsPresent()) {
  console.warn(
    `[real-feeds.test] ${REAL_FEEDS_DIR} is absent (npm run feeds): the real-feed checks did not run.`,
  );
}
