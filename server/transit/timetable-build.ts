import type { Feed } from "./gtfs";
import type { StopTime } from "./gtfs/types";
import {
  type Timetable,
  NO_TRANSFER,
  linkKey,
  type TransferRule,
  CALL_NONE,
  type Footpath,
  type Run,
  type Pattern,
  FORBIDDEN,
  LINK_ONLY,
} from "./timetable";
import { clock } from "./service-days";

/** Building the timetable (./timetable.ts) from a feed: runs, patterns, transfer rules, blocks and footpaths. */

export function buildTimetable(feed: Feed, footpaths: Footpath[] = []): Timetable {
  const runs = runsOf(feed);
  const patterns = patternsOf(feed, runs);
  const trips = tripsOf(feed, runs, patterns);
  const { order: _order, ...tripArrays } = trips;
  const S = feed.stops.length;
  const { stopTransfers, linkTransfers, paths } = transfersOf(feed, footpaths);
  const serviceIds = [...feed.services.keys()];
  return {
    timezone: feed.timezone,
    stops: feed.stops.map((s) => ({ id: s.id, name: s.name, lat: s.lat, lng: s.lng })),
    routes: feed.routes.map((r) => ({
      id: r.id,
      shortName: r.shortName,
      longName: r.longName,
      type: r.type,
    })),
    ...tripArrays,
    ...stopPatternsOf(S, patterns),
    serviceIds,
    services: serviceIds.map((id) => feed.services.get(id)!),
    stopTransfers,
    linkTransfers,
    ...footpathRows(S, paths),
    blockNext: blocksOf(feed, runs, trips),
  };
}

/** Trips with frequencies expanded: each departure from start while before end, at the headway. */
function runsOf(feed: Feed): Run[] {
  const runs: Run[] = [];
  feed.trips.forEach((trip, t) => {
    const windows = feed.frequencies.get(t);
    if (!windows) {
      if (trip.stopTimes.length >= 2) runs.push({ id: trip.id, template: t, shift: 0 });
      return;
    }
    const base = trip.stopTimes[0]!.departure;
    for (const w of windows) {
      for (let start = w.start; start < w.end; start += w.headway) {
        runs.push({ id: `${trip.id}@${clock(start)}`, template: t, shift: start - base });
      }
    }
  });
  return runs;
}

/**
 * Patterns: the same stops in the same order, where riders may board and get off alike (a trip
 * that passes a stop without picking up or letting off is not the same pattern as one that stops
 * there: RAPTOR takes the earliest trip of a pattern as the best), then split so that no trip
 * overtakes another.
 */
function patternsOf(feed: Feed, runs: Run[]): Pattern[] {
  const byStops = new Map<string, number[]>();
  const call = (st: StopTime) =>
    `${st.stop}${st.pickup === CALL_NONE ? "^" : ""}${st.dropOff === CALL_NONE ? "v" : ""}`;
  runs.forEach((run, r) => {
    const key = feed.trips[run.template]!.stopTimes.map(call).join(",");
    let list = byStops.get(key);
    if (!list) byStops.set(key, (list = []));
    list.push(r);
  });
  const time = (r: number, i: number, kind: "arrival" | "departure") =>
    feed.trips[runs[r]!.template]!.stopTimes[i]![kind] + runs[r]!.shift;
  const patterns: Pattern[] = [];
  for (const [key, list] of byStops) {
    const stops = key.split(",").map((c) => parseInt(c, 10));
    list.sort((a, b) => time(a, 0, "departure") - time(b, 0, "departure"));
    const groups: number[][] = [];
    for (const r of list) {
      const fits = (g: number[]) => {
        const last = g[g.length - 1]!;
        return stops.every(
          (_, i) =>
            time(last, i, "arrival") <= time(r, i, "arrival") &&
            time(last, i, "departure") <= time(r, i, "departure"),
        );
      };
      const group = groups.find(fits);
      if (group) group.push(r);
      else groups.push([r]);
    }
    for (const g of groups) patterns.push({ stops, runs: g });
  }
  return patterns;
}

/** Trips numbered pattern by pattern, in departure order, with their times and patterns' rows. */
function tripsOf(feed: Feed, runs: Run[], patterns: Pattern[]) {
  const order: number[] = patterns.flatMap((p) => p.runs);
  const T = order.length;
  const serviceIndex = new Map([...feed.services.keys()].map((id, i) => [id, i]));
  const tripRoute = new Uint32Array(T);
  const tripService = new Uint32Array(T);
  const tripPattern = new Uint32Array(T);
  const tripFirstTime = new Uint32Array(T + 1);
  order.forEach((r, t) => {
    tripFirstTime[t + 1] = tripFirstTime[t]! + feed.trips[runs[r]!.template]!.stopTimes.length;
  });
  const arrival = new Int32Array(tripFirstTime[T]!);
  const departure = new Int32Array(tripFirstTime[T]!);
  const callKinds = new Uint8Array(tripFirstTime[T]!);
  const tripId: string[] = [];
  const tripTemplate: number[] = [];
  const tripHeadsign: (string | undefined)[] = [];
  order.forEach((r, t) => {
    const trip = feed.trips[runs[r]!.template]!;
    tripId.push(runs[r]!.id);
    tripTemplate.push(runs[r]!.template);
    tripHeadsign.push(trip.headsign);
    tripRoute[t] = trip.route;
    tripService[t] = serviceIndex.get(trip.serviceId)!;
    trip.stopTimes.forEach((st, i) => {
      arrival[tripFirstTime[t]! + i] = st.arrival + runs[r]!.shift;
      departure[tripFirstTime[t]! + i] = st.departure + runs[r]!.shift;
      callKinds[tripFirstTime[t]! + i] = st.pickup | (st.dropOff << 2);
    });
  });
  const P = patterns.length;
  const patternFirstStop = new Uint32Array(P + 1);
  const patternFirstTrip = new Uint32Array(P + 1);
  patterns.forEach((p, i) => {
    patternFirstStop[i + 1] = patternFirstStop[i]! + p.stops.length;
    patternFirstTrip[i + 1] = patternFirstTrip[i]! + p.runs.length;
  });
  const patternStops = Uint32Array.from(patterns.flatMap((p) => p.stops));
  const patternTrips = Uint32Array.from(order.map((_, t) => t));
  patterns.forEach((p, i) => {
    for (let k = patternFirstTrip[i]!; k < patternFirstTrip[i + 1]!; k++) tripPattern[k] = i;
  });
  return {
    order,
    tripId,
    tripTemplate,
    tripHeadsign,
    tripRoute,
    tripService,
    tripPattern,
    tripFirstTime,
    arrival,
    departure,
    callKinds,
    patternFirstStop,
    patternStops,
    patternFirstTrip,
    patternTrips,
  };
}

/** Stops to the patterns calling there, and at which position. */
function stopPatternsOf(S: number, patterns: Pattern[]) {
  const calls: [number, number, number][] = [];
  patterns.forEach((p, i) => p.stops.forEach((s, pos) => calls.push([s, i, pos])));
  calls.sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]);
  const stopFirstPattern = new Uint32Array(S + 1);
  for (const [s] of calls) stopFirstPattern[s + 1]!++;
  for (let s = 0; s < S; s++) stopFirstPattern[s + 1]! += stopFirstPattern[s]!;
  const stopPatterns = Uint32Array.from(calls.map((c) => c[1]));
  const stopPatternPosition = Uint32Array.from(calls.map((c) => c[2]));
  return { stopFirstPattern, stopPatterns, stopPatternPosition };
}

/**
 * Transfers: rules at one stop; footpaths between stops (the feed's, then the foot graph's). A
 * rule written for a station (location_type 1) holds for each of its platforms, and between any
 * two of them: a change between platforms takes at least the station's time, whatever the walk.
 * Footpaths come from rules for every route and trip; a rule for some routes or trips between two
 * stops is a link transfer (checked when the rider, off such a vehicle, boards at the other stop),
 * and where no footpath joins the two stops, one only such riders may walk (LINK_ONLY).
 */
function transfersOf(feed: Feed, footpaths: Footpath[]) {
  const stopTransfers: Timetable["stopTransfers"] = new Map();
  const linkTransfers: Timetable["linkTransfers"] = new Map();
  const children = new Map<string, number[]>();
  feed.stops.forEach((s, i) => {
    if (s.parent === undefined || s.type !== 0) return;
    let list = children.get(s.parent);
    if (!list) children.set(s.parent, (list = []));
    list.push(i);
  });
  const platformsOf = (s: number) =>
    feed.stops[s]!.type === 1 ? (children.get(feed.stops[s]!.id) ?? []) : [s];
  const own = new Map<string, Footpath>();
  const fromStations = new Map<string, Footpath>();
  for (const t of feed.transfers) {
    const seconds = t.type === 3 ? NO_TRANSFER : t.type === 1 ? 0 : (t.minTime ?? 0);
    const station = feed.stops[t.fromStop]!.type === 1 || feed.stops[t.toStop]!.type === 1;
    const general = t.fromRoute === undefined && t.toRoute === undefined;
    const anyTrip = t.fromTrip === undefined && t.toTrip === undefined;
    const rule: TransferRule = {
      ...(t.fromRoute !== undefined && { fromRoute: t.fromRoute }),
      ...(t.toRoute !== undefined && { toRoute: t.toRoute }),
      ...(t.fromTrip !== undefined && { fromTrip: t.fromTrip }),
      ...(t.toTrip !== undefined && { toTrip: t.toTrip }),
      ...(station && { station: true as const }),
      seconds,
    };
    for (const from of platformsOf(t.fromStop)) {
      for (const to of platformsOf(t.toStop)) {
        if (from === to) pushTo(stopTransfers, from, rule);
        else if (general && anyTrip)
          (station ? fromStations : own).set(`${from},${to}`, { from, to, seconds });
        else pushTo(linkTransfers, linkKey(from, to), rule);
      }
    }
  }
  // A rule written for two stops comes before one written for their stations.
  const paths = new Map(own);
  for (const [key, f] of fromStations) if (!paths.has(key)) paths.set(key, f);
  for (const f of footpaths) {
    const key = `${f.from},${f.to}`;
    if (f.from !== f.to && !paths.has(key)) paths.set(key, f);
  }
  for (const key of linkTransfers.keys()) {
    const [from, to] = key.split(",").map(Number) as [number, number];
    if (!paths.has(key)) paths.set(key, { from, to, seconds: LINK_ONLY });
  }
  return { stopTransfers, linkTransfers, paths: [...paths.values()] };
}

/** Adds a value to the list under a key. */
function pushTo<K, V>(lists: Map<K, V[]>, key: K, value: V) {
  const list = lists.get(key);
  if (list) list.push(value);
  else lists.set(key, [value]);
}

/**
 * Where a rider stays seated: from a trip's last stop into the block's next trips starting there,
 * no earlier; and from a trip into the one transfers.txt says the vehicle runs next (type 4), no
 * earlier, whatever the blocks say. Type 5 forbids it between two trips (the rider gets off).
 */
function blocksOf(feed: Feed, runs: Run[], trips: ReturnType<typeof tripsOf>) {
  const { order, patternStops, patternFirstStop, tripPattern, tripFirstTime, arrival, departure } = trips;
  const template = (t: number) => runs[order[t]!]!.template;
  const pair = (from: number, to: number) => `${from},${to}`;
  const forbidden = new Set(feed.inSeat.filter((s) => !s.allowed).map((s) => pair(s.fromTrip, s.toTrip)));
  const byTemplate = new Map<number, number[]>();
  for (let t = 0; t < order.length; t++) {
    let list = byTemplate.get(template(t));
    if (!list) byTemplate.set(template(t), (list = []));
    list.push(t);
  }
  const blocks = new Map<string, number[]>();
  for (let t = 0; t < order.length; t++) {
    const block = feed.trips[runs[order[t]!]!.template]!.blockId;
    if (!block) continue;
    let list = blocks.get(block);
    if (!list) blocks.set(block, (list = []));
    list.push(t);
  }
  const blockNext: Timetable["blockNext"] = new Map();
  const tripLength = (t: number) => tripFirstTime[t + 1]! - tripFirstTime[t]!;
  const lastStop = (t: number) => patternStops[patternFirstStop[tripPattern[t]!]! + tripLength(t) - 1]!;
  const firstStop = (t: number) => patternStops[patternFirstStop[tripPattern[t]!]!]!;
  const end = (t: number) => arrival[tripFirstTime[t + 1]! - 1]!;
  const start = (u: number) => departure[tripFirstTime[u]!]!;
  const add = (t: number, candidates: number[]) => {
    const next = candidates.filter(
      (u) => u !== t && start(u) >= end(t) && !forbidden.has(pair(template(t), template(u))),
    );
    if (!next.length) return;
    const all = [...new Set([...(blockNext.get(t) ?? []), ...next])].sort((a, b) => start(a) - start(b));
    blockNext.set(t, all);
  };
  for (const list of blocks.values()) {
    for (const t of list)
      add(
        t,
        list.filter((u) => firstStop(u) === lastStop(t)),
      );
  }
  for (const s of feed.inSeat) {
    if (!s.allowed) continue;
    for (const t of byTemplate.get(s.fromTrip) ?? []) add(t, byTemplate.get(s.toTrip) ?? []);
  }
  return blockNext;
}

/** Footpaths in rows by their first stop (a forbidden one as FORBIDDEN). */
function footpathRows(S: number, paths: Footpath[]) {
  const sorted = [...paths].sort((a, b) => a.from - b.from || a.to - b.to);
  const pathFirst = new Uint32Array(S + 1);
  for (const f of sorted) pathFirst[f.from + 1]!++;
  for (let s = 0; s < S; s++) pathFirst[s + 1]! += pathFirst[s]!;
  const pathTo = Uint32Array.from(sorted.map((f) => f.to));
  const pathSeconds = Uint32Array.from(
    sorted.map((f) => (f.seconds === NO_TRANSFER ? FORBIDDEN : f.seconds)),
  );
  return { pathFirst, pathTo, pathSeconds };
}

/**
 * The timetable with walking footpaths added (from the foot graph, at load): the feed's own
 * transfers between stops, and those it forbids, stay as they are.
 */
export function withFootpaths(tt: Timetable, footpaths: Footpath[]): Timetable {
  const paths = new Map<string, Footpath>();
  for (let s = 0; s + 1 < tt.pathFirst.length; s++) {
    for (let k = tt.pathFirst[s]!; k < tt.pathFirst[s + 1]!; k++) {
      const seconds = tt.pathSeconds[k] === FORBIDDEN ? NO_TRANSFER : tt.pathSeconds[k]!;
      paths.set(`${s},${tt.pathTo[k]}`, { from: s, to: tt.pathTo[k]!, seconds });
    }
  }
  for (const f of footpaths) {
    const key = `${f.from},${f.to}`;
    // A walk found on foot opens a link transfer's path to everyone.
    if (f.from !== f.to && (!paths.has(key) || paths.get(key)!.seconds === LINK_ONLY)) paths.set(key, f);
  }
  return { ...tt, ...footpathRows(tt.stops.length, [...paths.values()]) };
}
