import Flatbush from "flatbush";
import { DateTime } from "luxon";
import type { Bundle } from "../bundles/file";
import { timetableOf } from "./timetable-bundle";
import { type Position, haversine } from "../geo/distance";
import { imports } from "../bundles/folder";
import { processOnce } from "../process-once";
import { walkingTimes } from "../routing/engine";
import type { Departure } from "../routing/schema";
import type { Leg as RoadLeg } from "../routing/search";
import { type Access, type Itinerary } from "./itinerary";
import { latestEarliestArrival } from "./raptor";
import { type Footpath, type Timetable } from "./timetable";
import { withFootpaths } from "./timetable-build";

/**
 * Transit trips over the imported GTFS feeds (docs/transit.md#the-endpoint), in the routing
 * workers: each feed's timetable prepared once per file with walking footpaths between its
 * stops (the foot graph of the OSM imports, else the straight line a third longer), then per
 * trip: walking to the stops near the origin, RAPTOR, walking from the stops near the
 * destination; the best feed's itinerary, or walking when that is sooner.
 */

/** Walking speed (m/s) and the detour factor when no foot network is imported. */
const WALK_MPS = 5 / 3.6;
const DETOUR = 4 / 3;
/** The longest walk to or from a stop, and between two stops (seconds). */
export const MAX_ACCESS_S = 15 * 60;
/** A point this close to a stop is at it: a rider there catches a departure at that very minute. */
const AT_STOP_M = 20;
export const MAX_TRANSFER_S = 8 * 60;

interface PreparedFeed {
  name: string;
  tt: Timetable;
  /** the located stops' index (ids into tt.stops) */
  index: Flatbush;
  located: number[];
}

const feeds = processOnce("transit-feeds", () => new WeakMap<Bundle, PreparedFeed | null>());

/** Straight-line walking: meters a third longer than the line, at 5 km/h. */
const estimate = (a: Position, b: Position): RoadLeg => {
  const meters = haversine(a[0], a[1], b[0], b[1]) * DETOUR;
  return { meters, seconds: meters / WALK_MPS };
};

/** Walking from a point to several: the foot network's where it reaches, else estimated. */
function walks(from: Position, to: Position[]): RoadLeg[] {
  const network = walkingTimes(from, to);
  return to.map((t, i) => (network ? network[i] : undefined) ?? estimate(from, t));
}

function stopsNear(f: PreparedFeed, [lng, lat]: Position, seconds: number): number[] {
  const reach = seconds * WALK_MPS;
  const dLat = reach / 111_320;
  const dLng = reach / (111_320 * Math.max(0.01, Math.cos((lat * Math.PI) / 180)));
  return f.index.search(lng - dLng, lat - dLat, lng + dLng, lat + dLat).map((i) => f.located[i]!);
}

const position = (tt: Timetable, s: number): Position => [tt.stops[s]!.lng, tt.stops[s]!.lat];

function prepareFeed(file: Bundle): PreparedFeed | null {
  if (feeds.has(file)) return feeds.get(file)!;
  const tt = timetableOf(file);
  let prepared: PreparedFeed | null = null;
  if (tt) {
    const located = tt.stops.flatMap((s, i) =>
      Number.isFinite(s.lat) && Number.isFinite(s.lng) && s.lat !== null ? [i] : [],
    );
    const index = new Flatbush(Math.max(1, located.length));
    for (const s of located) index.add(tt.stops[s]!.lng, tt.stops[s]!.lat);
    if (!located.length) index.add(0, 0);
    index.finish();
    const base: PreparedFeed = { name: file.meta().name ?? "", tt, index, located };
    // Footpaths: every pair of stops within MAX_TRANSFER_S on foot; the shortest walk between
    // two stops is never longer than a chain of walks, so the set is closed under chaining.
    const footpaths: Footpath[] = [];
    for (const s of located) {
      const near = stopsNear(base, position(tt, s), MAX_TRANSFER_S).filter((t) => t !== s);
      const legs = walks(
        position(tt, s),
        near.map((t) => position(tt, t)),
      );
      near.forEach((t, i) => {
        if (legs[i]!.seconds <= MAX_TRANSFER_S)
          footpaths.push({ from: s, to: t, seconds: Math.round(legs[i]!.seconds) });
      });
    }
    prepared = { ...base, tt: withFootpaths(tt, footpaths) };
  }
  feeds.set(file, prepared);
  return prepared;
}

/** Loads every feed now (at start) rather than on the first transit trip. */
export function preloadTransit(): void {
  for (const file of imports()) prepareFeed(file);
}

export interface TransitPlace {
  name?: string;
  stopId?: string;
  latitude: number;
  longitude: number;
}

export interface TransitLeg {
  mode: "walk" | "transit";
  meters: number;
  departure: number;
  arrival: number;
  from: TransitPlace;
  to: TransitPlace;
  route?: { id: string; shortName: string; longName: string; type: number };
  trip?: { id: string; headsign?: string };
  /** the stops the vehicle calls at between boarding and alighting */
  stops?: number;
  /** ridden on from the previous trip of its block without getting off */
  seated?: boolean;
  /** boarding or getting off only by arrangement: "phone" the agency, or ask the "driver" */
  pickup?: "phone" | "driver";
  dropOff?: "phone" | "driver";
  /** the leg's line, `[lng, lat]`: a walk straight from its start to its end, a ride through its stops */
  path: Position[];
}

/** pickup_type / drop_off_type 2 and 3 as the legs say them. */
const ARRANGED: Record<number, "phone" | "driver"> = { 2: "phone", 3: "driver" };

export type TransitResult =
  | {
      meters: number;
      seconds: number;
      /** Unix seconds, and the feed's time zone to show them in */
      departure: number;
      arrival: number;
      timezone: string;
      feed?: string;
      walkingOnly?: boolean;
      legs: TransitLeg[];
    }
  | { unrouted: "no-feed" | "no-trip"; walking: { meters: number; seconds: number } };

/** The best itinerary over the feeds, with the walks to and from its stops. */
interface Best {
  feed: PreparedFeed;
  it: Itinerary;
  access: Map<number, RoadLeg>;
  egress: Map<number, RoadLeg>;
  /** the departure asked (the itinerary may leave later: as late as still arrives first) */
  asked: number;
}

/**
 * The earliest arrival by transit leaving at `leaving`: the best itinerary over
 * the feeds, walking when that arrives sooner; when no feed serves both ends (or none has a trip
 * in time), why, with the walking route.
 */
export function transitRoute(origin: Position, destination: Position, leaving: Departure): TransitResult {
  const [direct] = walks(origin, [destination]) as [RoadLeg];
  const { best, served } = bestItinerary(origin, destination, leaving);
  const walking = { meters: direct.meters, seconds: Math.round(direct.seconds) };
  if (!best) return { unrouted: served ? "no-trip" : "no-feed", walking };
  const timezone = best.feed.tt.timezone;
  // Walking from the time asked, if it arrives no later, is the answer; else the ride, left as
  // late as still arrives first.
  if (best.asked + walking.seconds <= best.it.arrival) {
    const departure = best.asked;
    const arrival = departure + walking.seconds;
    const walk: TransitLeg = {
      mode: "walk",
      meters: direct.meters,
      departure,
      arrival,
      from: here(origin),
      to: here(destination),
      path: [origin, destination],
    };
    return { ...walking, departure, arrival, timezone, walkingOnly: true, legs: [walk] };
  }
  const departure = best.it.departure;
  const legs = legsOf(best, origin, destination);
  return {
    meters: legs.reduce((sum, l) => sum + l.meters, 0),
    seconds: best.it.arrival - departure,
    departure,
    arrival: best.it.arrival,
    timezone,
    feed: best.feed.name,
    legs,
  };
}

const here = (p: Position): TransitPlace => ({ latitude: p[1], longitude: p[0] });

/** The earliest itinerary over the feeds that serve both ends; `served`: whether any did. */
function bestItinerary(origin: Position, destination: Position, leaving: Departure) {
  /** The departure as a Unix time: a local time is the feed's. */
  const unix = (timezone: string) =>
    "at" in leaving ? leaving.at : DateTime.fromISO(leaving.local, { zone: timezone }).toSeconds();
  let best: Best | undefined;
  let served = false;
  for (const file of imports()) {
    const f = prepareFeed(file);
    if (!f) continue;
    const near = (p: Position) => {
      const stops = stopsNear(f, p, MAX_ACCESS_S);
      const legs = walks(
        p,
        stops.map((s) => position(f.tt, s)),
      );
      return new Map(
        stops.flatMap((s, i) => {
          // Standing at the stop: no walk (the point and the stop snap onto the paths apart).
          const at = haversine(...p, ...position(f.tt, s)) <= AT_STOP_M;
          const leg = at ? { meters: 0, seconds: 0 } : legs[i]!;
          return leg.seconds <= MAX_ACCESS_S ? [[s, leg] as const] : [];
        }),
      );
    };
    const access = near(origin);
    const egress = near(destination);
    if (!access.size || !egress.size) continue;
    served = true;
    const toAccess = (m: Map<number, RoadLeg>): Access[] =>
      [...m].map(([stop, leg]) => ({ stop, seconds: Math.round(leg.seconds) }));
    const asked = Math.round(unix(f.tt.timezone));
    const it = latestEarliestArrival(f.tt, toAccess(access), toAccess(egress), asked);
    if (it && (!best || it.arrival < best.it.arrival)) best = { feed: f, it, access, egress, asked };
  }
  return { best, served };
}

/** The itinerary's legs as answered: walks (with their road meters) and rides (with their stops). */
function legsOf(best: Best, origin: Position, destination: Position): TransitLeg[] {
  const tt = best.feed.tt;
  const stop = (s: number): TransitPlace => ({
    name: tt.stops[s]!.name,
    stopId: tt.stops[s]!.id,
    latitude: tt.stops[s]!.lat,
    longitude: tt.stops[s]!.lng,
  });
  return best.it.legs.flatMap((l): TransitLeg[] => {
    if (l.kind === "walk") {
      const from = l.fromStop === undefined ? here(origin) : stop(l.fromStop);
      const to = l.toStop === undefined ? here(destination) : stop(l.toStop);
      const meters =
        l.fromStop === undefined
          ? best.access.get(l.toStop!)!.meters
          : l.toStop === undefined
            ? best.egress.get(l.fromStop)!.meters
            : walks(position(tt, l.fromStop), [position(tt, l.toStop)])[0]!.meters;
      if (meters === 0 && l.arrival === l.departure) return [];
      const path: Position[] = [
        [from.longitude, from.latitude],
        [to.longitude, to.latitude],
      ];
      return [{ mode: "walk", meters, departure: l.departure, arrival: l.arrival, from, to, path }];
    }
    const p = tt.tripPattern[l.trip]!;
    const calls = Array.from(tt.patternStops.subarray(tt.patternFirstStop[p]!, tt.patternFirstStop[p + 1]!));
    const board = calls.indexOf(l.fromStop);
    const alight = calls.indexOf(l.toStop, board + 1);
    let meters = 0;
    for (let i = board + 1; i <= alight; i++)
      meters += haversine(...position(tt, calls[i - 1]!), ...position(tt, calls[i]!));
    const route = tt.routes[tt.tripRoute[l.trip]!]!;
    const headsign = tt.tripHeadsign[l.trip];
    return [
      {
        mode: "transit",
        meters,
        departure: l.departure,
        arrival: l.arrival,
        from: stop(l.fromStop),
        to: stop(l.toStop),
        route,
        trip: { id: tt.tripId[l.trip]!, ...(headsign && { headsign }) },
        stops: alight - board,
        ...(l.seated && { seated: true }),
        ...(l.pickup && { pickup: ARRANGED[l.pickup] }),
        ...(l.dropOff && { dropOff: ARRANGED[l.dropOff] }),
        path: calls.slice(board, alight + 1).map((c) => position(tt, c)),
      },
    ];
  });
}
