import { describe, expect, it } from "vitest";
import { REAL_FEEDS_DIR, realFeedRows, realFeedTexts, realFeedsPresent } from "../../scripts/real-feeds";
import { type Feed, parseFeed } from "./gtfs";
import { type Itinerary } from "./itinerary";
import { latestEarliestArrival } from "./raptor";
import { type Timetable } from "./timetable";
import { buildTimetable } from "./timetable-build";
import { runsOn, serviceDayStart } from "./service-days";

/**
 * Real operators' feeds the project was not tuned on (`npm run feeds`: the MTA's Long Island Rail
 * Road and subway, from a registry package; skipped, with a warning, when absent). Random journeys
 * between their stops; every change in every answer is checked against transfers.txt as the
 * reference reads it, computed here on its own from the file's rows: the most specific rule
 * (trip pair, trip and route, trip, route pair, route, stops), a station's rule on its platforms
 * and between them, type 3 never. Without them, the railroad's trip-to-trip rows would undo a
 * stop's 300 s minimum and the subway's platforms ignore their stations' 180 s.
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

/**
 * A second journey planner, independent of the engine: the Connection Scan Algorithm over the
 * feed's own rows (stop_times, trips, calendar, calendar_dates, transfers), read here. It boards
 * where pickup is allowed and alights where drop-off is, changes at a stop after the time
 * transfers.txt asks (requiredSeconds, the reference's reading), and walks the feed's footpaths
 * (rules for every route and trip between two stops, a stop's own before its station's). One label
 * per stop (the earliest arrival, and the trip it came by): with rules that depend on the trip, a
 * later arrival by another trip could allow a change the earliest does not, so where the engine
 * arrives earlier the peer does not honour the same rules, and the engine's answer is checked on
 * its own (checkFeed above). The peer never may arrive earlier than the engine.
 */
function connectionScan(name: "lirr" | "subway", date: number) {
  const rows = (f: string) => realFeedRows(name, f);
  const stops = rows("stops");
  const parent = new Map(
    stops.flatMap((s) => (s.parent_station ? [[s.stop_id!, s.parent_station] as const] : [])),
  );
  const weekday = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"][
    new Date(Date.UTC(Math.floor(date / 10000), (Math.floor(date / 100) % 100) - 1, date % 100)).getUTCDay()
  ]!;
  const running = new Set<string>();
  for (const c of rows("calendar")) {
    if (c[weekday] === "1" && Number(c.start_date) <= date && date <= Number(c.end_date))
      running.add(c.service_id!);
  }
  for (const d of rows("calendar_dates")) {
    if (Number(d.date) !== date) continue;
    if (d.exception_type === "1") running.add(d.service_id!);
    else running.delete(d.service_id!);
  }
  const routeOf = new Map(rows("trips").map((t) => [t.trip_id!, t.route_id!]));
  const runs = new Set(rows("trips").flatMap((t) => (running.has(t.service_id!) ? [t.trip_id!] : [])));
  const seconds = (hms: string) => {
    const [h, m, sec] = hms.split(":").map(Number);
    return h! * 3600 + m! * 60 + sec!;
  };
  const byTrip = new Map<string, Row[]>();
  for (const st of rows("stop_times")) {
    if (!runs.has(st.trip_id!)) continue;
    let list = byTrip.get(st.trip_id!);
    if (!list) byTrip.set(st.trip_id!, (list = []));
    list.push(st);
  }
  const connections: { dep: number; arr: number; from: string; to: string; trip: string }[] = [];
  for (const [trip, calls] of byTrip) {
    calls.sort((a, b) => Number(a.stop_sequence) - Number(b.stop_sequence));
    for (let i = 0; i + 1 < calls.length; i++) {
      const [a, b] = [calls[i]!, calls[i + 1]!];
      connections.push({
        dep: seconds(a.departure_time!),
        arr: seconds(b.arrival_time!),
        from: a.pickup_type === "1" ? "" : a.stop_id!, // no boarding there
        to: b.drop_off_type === "1" ? "" : b.stop_id!, // no alighting there
        trip,
      });
      // Still ridden through a stop without boarding or alighting: keep its true ids for riding on.
      Object.assign(connections.at(-1)!, { fromStop: a.stop_id!, toStop: b.stop_id! });
    }
  }
  connections.sort((a, b) => a.dep - b.dep);
  // Footpaths: rules for every route and trip between two distinct stops; a station's for its platforms.
  const rules = rows("transfers");
  const platforms = new Map<string, string[]>();
  for (const st of stops) {
    if (st.parent_station && (st.location_type || "0") === "0") {
      let list = platforms.get(st.parent_station);
      if (!list) platforms.set(st.parent_station, (list = []));
      list.push(st.stop_id!);
    }
  }
  const isStation = (id: string) => stops.find((st) => st.stop_id === id)?.location_type === "1";
  const own = new Map<string, number>();
  const fromStations = new Map<string, number>();
  for (const r of rules) {
    if (r.from_route_id || r.to_route_id || r.from_trip_id || r.to_trip_id) continue;
    const secs = r.transfer_type === "3" ? -1 : r.transfer_type === "2" ? Number(r.min_transfer_time) : 0;
    const station = isStation(r.from_stop_id!) || isStation(r.to_stop_id!);
    const expand = (id: string) => (isStation(id) ? (platforms.get(id) ?? []) : [id]);
    for (const a of expand(r.from_stop_id!))
      for (const b of expand(r.to_stop_id!))
        if (a !== b) (station ? fromStations : own).set(`${a}\0${b}`, secs);
  }
  const paths = new Map<string, [string, number][]>();
  for (const [key, secs] of [...fromStations, ...own]) {
    const [a, b] = key.split("\0") as [string, string];
    if (own.has(key) && !own.has(key)) continue;
    const list = paths.get(a) ?? [];
    paths.set(a, [...list.filter(([to]) => to !== b), ...(secs >= 0 ? [[b, secs] as [string, number]] : [])]);
  }
  return (from: string, to: string, leave: number): number | undefined => {
    const arrival = new Map<string, number>([[from, leave]]);
    const cameBy = new Map<string, string>();
    const reached = new Set<string>();

    const walk = (stop: string, at: number) => {
      for (const [next, secs] of paths.get(stop) ?? []) {
        if (at + secs < (arrival.get(next) ?? Infinity)) {
          arrival.set(next, at + secs);
          cameBy.delete(next);
        }
      }
    };
    walk(from, leave);
    for (const c of connections as ((typeof connections)[number] & { fromStop: string; toStop: string })[]) {
      if (c.dep < leave) continue;
      if ((arrival.get(to) ?? Infinity) <= c.dep) break;
      if (!reached.has(c.trip) && c.from) {
        const at = arrival.get(c.from);
        if (at !== undefined) {
          const by = cameBy.get(c.from);
          const need = by
            ? requiredSeconds(rules, parent, {
                fromStop: c.from,
                toStop: c.from,
                fromTrip: by,
                toTrip: c.trip,
                fromRoute: routeOf.get(by)!,
                toRoute: routeOf.get(c.trip)!,
              })
            : 0;
          if (by !== c.trip && at + need <= c.dep) reached.add(c.trip);
        }
      }
      if (!reached.has(c.trip) || !c.to) continue;
      if (c.arr < (arrival.get(c.to) ?? Infinity)) {
        arrival.set(c.to, c.arr);
        cameBy.set(c.to, c.trip);

        walk(c.to, c.arr);
      }
    }
    return arrival.get(to);
  };
}

function compareWithPeer(name: "lirr" | "subway", queries: number) {
  const feed = parseFeed(realFeedTexts(name));
  const tt = buildTimetable(feed);
  const date = busiestDate(feed, tt);
  const start = serviceDayStart(tt.timezone, date);
  const peer = connectionScan(name, date);
  const platforms = tt.stops
    .map((s, i) => [s, i] as const)
    .filter(([s]) => feed.stops.find((f) => f.id === s.id)!.type === 0);
  const next = random(31);
  const out = {
    compared: 0,
    same: 0,
    /** journeys into the next service day, which the peer (one service day) does not look at */
    peerNone: 0,
    engineEarlier: [] as string[],
    peerEarlier: [] as string[],
    ms: [] as number[],
  };
  for (let q = 0; q < queries; q++) {
    const [a, b] = [
      platforms[Math.floor(next() * platforms.length)]!,
      platforms[Math.floor(next() * platforms.length)]!,
    ];
    if (a[1] === b[1]) continue;
    const leaveAt = 6 * 3600 + Math.floor(next() * 14 * 3600);
    const t = performance.now();
    const it = latestEarliestArrival(
      tt,
      [{ stop: a[1], seconds: 0 }],
      [{ stop: b[1], seconds: 0 }],
      start + leaveAt,
    );
    out.ms.push(performance.now() - t);
    const mine = it && it.arrival - start;
    const theirs = peer(a[0].id, b[0].id, leaveAt);
    if (mine === undefined && theirs === undefined) continue;
    out.compared++;
    if (mine === theirs) out.same++;
    else if (theirs === undefined) out.peerNone++;
    else if (mine !== undefined && mine < theirs)
      out.engineEarlier.push(`${a[0].id} → ${b[0].id} at ${leaveAt} s`);
    else
      out.peerEarlier.push(
        `${a[0].id} → ${b[0].id} at ${leaveAt} s: engine ${mine ?? "none"}, peer ${theirs}`,
      );
  }
  return out;
}

describe.runIf(realFeedsPresent())("real feeds: the same arrivals as an independent planner", () => {
  for (const [name, queries] of [
    ["lirr", 300],
    ["subway", 200],
  ] as const) {
    it(`on the ${name === "lirr" ? "Long Island Rail Road" : "subway"}: the connection scan's arrival on every journey it finds`, () => {
      const r = compareWithPeer(name, queries);
      const sorted = [...r.ms].sort((x, y) => x - y);
      console.log(
        `[real-feeds] ${name}: ${r.compared} journeys, ${r.same} the same arrival as the peer, ${r.peerNone} into ` +
          `the next service day (the peer looks at one), engine p50 ${sorted[Math.floor(sorted.length / 2)]!.toFixed(1)} ms`,
      );
      expect(r.compared).toBeGreaterThan(queries / 2);
      expect(r.peerEarlier).toEqual([]);
      // Earlier than the peer: where a later arrival by another trip allows a change its one label
      // per stop does not see (none on these feeds today).
      expect(r.engineEarlier).toEqual([]);
      expect(r.same).toBe(r.compared - r.peerNone);
    }, 180_000);
  }
});

if (!realFeedsPresent()) {
  console.warn(
    `[real-feeds.test] ${REAL_FEEDS_DIR} is absent (npm run feeds): the real-feed checks did not run.`,
  );
}
