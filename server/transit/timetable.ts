import { DateTime } from "luxon";
import type { Feed, Service } from "./gtfs";
import type { StopTime } from "./gtfs/types";

/**
 * The timetable RAPTOR searches (docs/transit.md#the-timetable), built once per feed: trips
 * (frequencies expanded into one trip per departure, at exact headways) grouped into patterns
 * (trips calling at the same stops in the same order that never overtake one another), each
 * pattern's trips in departure order, their times in typed arrays; for each stop, the patterns
 * calling there; transfer rules; footpaths between stops; and, for trips of a block, the trips
 * a rider stays seated into.
 */

export interface Timetable {
  timezone: string;
  stops: { id: string; name: string; lat: number; lng: number }[];
  routes: { id: string; shortName: string; longName: string; type: number }[];
  /** per trip: its id (a frequency's copies: the template's id @ the start time), route, service, block */
  tripId: string[];
  /** per trip: the feed's trip it runs (a frequency's copies share one), which trip rules name */
  tripTemplate: number[];
  tripHeadsign: (string | undefined)[];
  tripRoute: Uint32Array;
  tripService: Uint32Array;
  tripPattern: Uint32Array;
  /** times of trip t at its stops: arrival/departure[tripFirstTime[t] + i], seconds of the service day */
  tripFirstTime: Uint32Array;
  arrival: Int32Array;
  departure: Int32Array;
  /** at the same index: pickup_type | drop_off_type << 2 (CALL_NONE: no boarding, or no alighting) */
  callKinds: Uint8Array;
  /** pattern p calls at patternStops[patternFirstStop[p] .. patternFirstStop[p + 1] - 1] */
  patternFirstStop: Uint32Array;
  patternStops: Uint32Array;
  /** its trips, by departure: patternTrips[patternFirstTrip[p] .. patternFirstTrip[p + 1] - 1] */
  patternFirstTrip: Uint32Array;
  patternTrips: Uint32Array;
  /** the patterns calling at stop s, and the position of s in each (a pattern calling twice: twice) */
  stopFirstPattern: Uint32Array;
  stopPatterns: Uint32Array;
  stopPatternPosition: Uint32Array;
  /** services by index (tripService), and whether each runs on a service date */
  serviceIds: string[];
  services: Service[];
  /** transfer rules at one stop (changing vehicles there), by stop */
  stopTransfers: Map<number, TransferRule[]>;
  /**
   * transfer rules between two stops for some routes or trips ("from,to"): a change from one
   * vehicle at the first stop to another at the second, walked (absent in older imports)
   */
  linkTransfers: Map<string, TransferRule[]>;
  /** footpaths between distinct stops: stop s to pathTo[k] in pathSeconds[k], k in pathFirst[s] .. */
  pathFirst: Uint32Array;
  pathTo: Uint32Array;
  pathSeconds: Uint32Array;
  /** per trip: the trips of its block a rider stays seated into (at its last stop, in departure order) */
  blockNext: Map<number, number[]>;
}

/** A transfer that may not be made (transfer_type 3). */
export const NO_TRANSFER = -1;

/** The key of the rules between two stops in `linkTransfers`. */
export const linkKey = (from: number, to: number) => `${from},${to}`;

/**
 * A rule for changing vehicles at one stop: for some routes or trips (feed trip indexes, which
 * `tripTemplate` maps timetable trips to), or for every change there; `station` when written for
 * the stop's parent station (a rule written for the stop itself comes first).
 */
export interface TransferRule {
  fromRoute?: number;
  toRoute?: number;
  fromTrip?: number;
  toTrip?: number;
  station?: true;
  seconds: number;
}

/** pickup_type / drop_off_type 1: no boarding / no alighting there. */
export const CALL_NONE = 1;
export const pickupOf = (kinds: number) => kinds & 3;
export const dropOffOf = (kinds: number) => (kinds >> 2) & 3;

/** A footpath between two stops, in seconds (from the foot graph, or the feed's transfers). */
export interface Footpath {
  from: number;
  to: number;
  seconds: number;
}

/** A trip as it runs: a feed trip, or one departure of a frequency-based trip (its times shifted). */
interface Run {
  id: string;
  template: number;
  shift: number;
}

/** Runs of the same stops in the same order, none overtaking another. */
interface Pattern {
  stops: number[];
  runs: number[];
}

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

/** A footpath the feed forbids (transfers.txt type 3 between two stops): kept so none is added. */
export const FORBIDDEN = 0xffffffff;
/** A footpath only riders off the vehicles of a link transfer may walk (its rules say how long). */
export const LINK_ONLY = 0xfffffffe;

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

/** Seconds as H:MM:SS (hours past 24 kept). */
export function clock(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return `${h}:${String(m).padStart(2, "0")}:${String(s).padStart(2, "0")}`;
}

/** Whether a service runs on a service date (yyyymmdd): calendar_dates first, then calendar.txt. */
export function runsOn(service: Service, date: number): boolean {
  if (service.removed.has(date)) return false;
  if (service.added.has(date)) return true;
  if (!service.start || date < service.start || date > service.end) return false;
  const d = new Date(Date.UTC(Math.floor(date / 10000), (Math.floor(date / 100) % 100) - 1, date % 100));
  return service.days[(d.getUTCDay() + 6) % 7]!;
}

/**
 * Where a service date's times count from, as Unix seconds: noon minus 12 hours in the feed's
 * time zone (GTFS), which is midnight except on the days the clocks change.
 */
export function serviceDayStart(timezone: string, date: number): number {
  const noon = DateTime.fromObject(
    { year: Math.floor(date / 10000), month: Math.floor(date / 100) % 100, day: date % 100, hour: 12 },
    { zone: timezone },
  );
  return noon.toSeconds() - 12 * 3600;
}

/** The service date (yyyymmdd) a Unix time falls on in the time zone, shifted by `days`. */
export function serviceDateOf(timezone: string, unixSeconds: number, days = 0): number {
  const d = DateTime.fromSeconds(unixSeconds, { zone: timezone }).plus({ days });
  return d.year * 10000 + d.month * 100 + d.day;
}

const ARRAYS = {
  tripRoute: Uint32Array,
  tripService: Uint32Array,
  tripPattern: Uint32Array,
  tripFirstTime: Uint32Array,
  arrival: Int32Array,
  departure: Int32Array,
  callKinds: Uint8Array,
  patternFirstStop: Uint32Array,
  patternStops: Uint32Array,
  patternFirstTrip: Uint32Array,
  patternTrips: Uint32Array,
  stopFirstPattern: Uint32Array,
  stopPatterns: Uint32Array,
  stopPatternPosition: Uint32Array,
  pathFirst: Uint32Array,
  pathTo: Uint32Array,
  pathSeconds: Uint32Array,
} as const;

/** The timetable's parts for the bundle's transit table: typed arrays as bytes, the rest as JSON. */
export function timetableParts(tt: Timetable): [string, Uint8Array][] {
  const rest = {
    timezone: tt.timezone,
    stops: tt.stops,
    routes: tt.routes,
    tripId: tt.tripId,
    tripTemplate: tt.tripTemplate,
    tripHeadsign: tt.tripHeadsign,
    serviceIds: tt.serviceIds,
    services: tt.services.map((s) => ({ ...s, added: [...s.added], removed: [...s.removed] })),
    stopTransfers: [...tt.stopTransfers],
    linkTransfers: [...tt.linkTransfers],
    blockNext: [...tt.blockNext],
  };
  return [
    ...Object.keys(ARRAYS).map((k) => {
      const a = tt[k as keyof typeof ARRAYS];
      return [k, new Uint8Array(a.buffer, a.byteOffset, a.byteLength)] as [string, Uint8Array];
    }),
    ["json", new TextEncoder().encode(JSON.stringify(rest))],
  ];
}

/** Parts a timetable imported before they existed lacks, and what they then are. */
const LATER_PARTS: Partial<Record<keyof typeof ARRAYS, (tt: { arrival: Int32Array }) => Uint8Array>> = {
  // every call a regular one (imports before pickup_type and drop_off_type were read)
  callKinds: (tt) => new Uint8Array(tt.arrival.length),
};

/** The timetable from its stored parts (arrays copied: a blob's bytes need not be aligned). */
export function timetableFromParts(parts: Map<string, Uint8Array>): Timetable {
  const part = (name: string) => {
    const bytes = parts.get(name);
    if (!bytes) throw new Error(`transit timetable: part ${name} is missing`);
    const copy = new Uint8Array(bytes.byteLength);
    copy.set(bytes);
    return copy.buffer;
  };
  const arrays = Object.fromEntries(
    Object.entries(ARRAYS)
      .filter(([k]) => parts.has(k) || !(k in LATER_PARTS))
      .map(([k, Type]) => [k, new Type(part(k))]),
  ) as Record<string, ArrayLike<number>>;
  for (const [k, make] of Object.entries(LATER_PARTS)) {
    if (!(k in arrays)) arrays[k] = make!(arrays as unknown as { arrival: Int32Array });
  }
  const rest = JSON.parse(new TextDecoder().decode(part("json"))) as Omit<
    Timetable,
    keyof typeof ARRAYS | "services" | "stopTransfers" | "linkTransfers" | "blockNext"
  > & {
    services: (Omit<Service, "added" | "removed"> & { added: number[]; removed: number[] })[];
    stopTransfers: [number, { fromRoute?: number; toRoute?: number; seconds: number }[]][];
    linkTransfers?: [string, TransferRule[]][];
    blockNext: [number, number[]][];
  };
  return {
    ...(arrays as unknown as Pick<Timetable, keyof typeof ARRAYS>),
    ...rest,
    // imports before trip rules were read name no trip: each trip its own
    tripTemplate: rest.tripTemplate ?? rest.tripId.map((_, t) => t),
    services: rest.services.map((s) => ({ ...s, added: new Set(s.added), removed: new Set(s.removed) })),
    stopTransfers: new Map(rest.stopTransfers),
    // imports before link transfers were read have none
    linkTransfers: new Map(rest.linkTransfers ?? []),
    blockNext: new Map(rest.blockNext),
  };
}
