import { FORBIDDEN, NO_TRANSFER, type Timetable, runsOn, serviceDateOf, serviceDayStart } from "./timetable";

/**
 * Earliest arrival by public transport (docs/transit.md#the-search): RAPTOR (Delling, Pajor,
 * Werneck), round by round, each round one more vehicle. A round scans every pattern calling at
 * a stop the previous round improved, boarding the earliest trip that runs on its service day
 * and can be caught (the minimum transfer time of transfers.txt, per route where it says so),
 * riding on through the block into the next trip where the rider stays seated, then walks the
 * footpaths. Times are Unix seconds; a service day's times count from its noon minus 12 hours.
 */

/** Walking between a point and a stop. */
export interface Access {
  stop: number;
  seconds: number;
}

export type Leg =
  | { kind: "walk"; fromStop?: number; toStop?: number; departure: number; arrival: number }
  | {
      kind: "ride";
      trip: number;
      fromStop: number;
      toStop: number;
      departure: number;
      arrival: number;
      /** ridden on from the block's previous trip without getting off */
      seated?: boolean;
    };

export interface Itinerary {
  departure: number;
  arrival: number;
  legs: Leg[];
}

/** How a stop was reached in a round. */
type Label =
  { kind: "access" } | { kind: "walk"; from: number } | { kind: "ride"; ride: Ride; alight: number };

interface Ride {
  trip: number;
  day: number;
  board: number;
  boardStop: number;
  /** the trip of the block this one was ridden on from (seated); its `board` is its first stop */
  seatedFrom?: Ride;
}

/** The most vehicles a journey takes, and the most trips of a block ridden seated in a row. */
const MAX_ROUNDS = 8;
const MAX_SEATED = 16;

export function earliestArrival(
  tt: Timetable,
  origin: Access[],
  destination: Access[],
  departure: number,
): Itinerary | undefined {
  const S = tt.stops.length;
  // Service days around the departure: yesterday's trips past midnight, today's, tomorrow's.
  const dates = [-1, 0, 1, 2].map((d) => serviceDateOf(tt.timezone, departure, d));
  const starts = dates.map((d) => serviceDayStart(tt.timezone, d));
  const running = dates.map((d) => tt.services.map((s) => runsOn(s, d)));

  const best = new Float64Array(S).fill(Infinity);
  const arrivals: Float64Array[] = [];
  const labels: (Label | undefined)[][] = [];
  const round0 = new Float64Array(S).fill(Infinity);
  const labels0: (Label | undefined)[] = [];
  let marked = new Set<number>();
  for (const a of origin) {
    const t = departure + a.seconds;
    if (t < round0[a.stop]!) {
      round0[a.stop] = best[a.stop] = t;
      labels0[a.stop] = { kind: "access" };
      marked.add(a.stop);
    }
  }
  arrivals.push(round0);
  labels.push(labels0);
  let target = Infinity;
  let reached: { round: number; stop: number; egress: number } | undefined;
  const check = (k: number) => {
    for (const e of destination) {
      const t = arrivals[k]![e.stop]! + e.seconds;
      if (t < target) {
        target = t;
        reached = { round: k, stop: e.stop, egress: e.seconds };
      }
    }
  };
  check(0);

  const tripTime = (times: Int32Array, t: number, pos: number) => times[tt.tripFirstTime[t]! + pos]!;
  /** The earliest trip of a pattern leaving position `pos` at `ready` or later, on any service day. */
  const earliestTrip = (p: number, pos: number, ready: number) => {
    let found: { trip: number; day: number; at: number } | undefined;
    const first = tt.patternFirstTrip[p]!;
    const end = tt.patternFirstTrip[p + 1]!;
    for (let day = 0; day < dates.length; day++) {
      const local = ready - starts[day]!;
      let lo = first;
      let hi = end;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (tripTime(tt.departure, tt.patternTrips[mid]!, pos) < local) lo = mid + 1;
        else hi = mid;
      }
      for (let k = lo; k < end; k++) {
        const t = tt.patternTrips[k]!;
        if (!running[day]![tt.tripService[t]!]) continue;
        const at = starts[day]! + tripTime(tt.departure, t, pos);
        if (!found || at < found.at) found = { trip: t, day, at };
        break;
      }
    }
    return found;
  };
  /** When a rider who reached stop s in round k can board a trip of `route` there. */
  const ready = (k: number, s: number, route: number) => {
    const at = arrivals[k]![s]!;
    const label = labels[k]![s];
    if (at === Infinity || !label) return Infinity;
    if (label.kind !== "ride") return at;
    const seconds = transferSeconds(tt, s, tt.tripRoute[label.ride.trip]!, route);
    return seconds === NO_TRANSFER ? Infinity : at + seconds;
  };

  for (let k = 1; k <= MAX_ROUNDS && marked.size; k++) {
    const now = new Float64Array(S).fill(Infinity);
    const nowLabels: (Label | undefined)[] = [];
    arrivals.push(now);
    labels.push(nowLabels);
    const improved = new Set<number>();
    const arrive = (s: number, at: number, label: Label) => {
      if (at < best[s]! && at < target) {
        now[s] = best[s] = at;
        nowLabels[s] = label;
        improved.add(s);
      }
    };
    // The patterns to scan, each from the first position a marked stop has in it.
    const queue = new Map<number, number>();
    for (const s of marked) {
      for (let k2 = tt.stopFirstPattern[s]!; k2 < tt.stopFirstPattern[s + 1]!; k2++) {
        const p = tt.stopPatterns[k2]!;
        const pos = tt.stopPatternPosition[k2]!;
        if (pos < (queue.get(p) ?? Infinity)) queue.set(p, pos);
      }
    }
    /** Rides a trip from position `from` to its end, then on into the block's next trip. */
    const rideOn = (ride: Ride, from: number, depth: number) => {
      const p = tt.tripPattern[ride.trip]!;
      const base = tt.patternFirstStop[p]!;
      const length = tt.patternFirstStop[p + 1]! - base;
      for (let pos = from; pos < length; pos++) {
        arrive(tt.patternStops[base + pos]!, starts[ride.day]! + tripTime(tt.arrival, ride.trip, pos), {
          kind: "ride",
          ride,
          alight: pos,
        });
      }
      if (depth < MAX_SEATED) seatedInto(ride, depth + 1);
    };
    /** The block's next trip running that service day, ridden on from its second stop. */
    const seatedInto = (ride: Ride, depth: number) => {
      for (const next of tt.blockNext.get(ride.trip) ?? []) {
        if (!running[ride.day]![tt.tripService[next]!]) continue;
        const stop = tt.patternStops[tt.patternFirstStop[tt.tripPattern[next]!]!]!;
        rideOn({ trip: next, day: ride.day, board: 0, boardStop: stop, seatedFrom: ride }, 1, depth);
        return;
      }
    };
    for (const [p, first] of queue) {
      const base = tt.patternFirstStop[p]!;
      const length = tt.patternFirstStop[p + 1]! - base;
      const route = tt.tripRoute[tt.patternTrips[tt.patternFirstTrip[p]!]!]!;
      let ride: Ride | undefined;
      for (let pos = first; pos < length; pos++) {
        const s = tt.patternStops[base + pos]!;
        if (ride) {
          arrive(s, starts[ride.day]! + tripTime(tt.arrival, ride.trip, pos), {
            kind: "ride",
            ride,
            alight: pos,
          });
        }
        const at = ready(k - 1, s, route);
        if (at === Infinity) continue;
        const leaving = ride ? starts[ride.day]! + tripTime(tt.departure, ride.trip, pos) : Infinity;
        if (at > leaving) continue;
        const caught = earliestTrip(p, pos, at);
        if (caught && caught.at < leaving) {
          ride = { trip: caught.trip, day: caught.day, board: pos, boardStop: s };
        }
      }
      // Seated into the block's next trip: ridden on in this round (no transfer).
      if (ride) seatedInto(ride, 1);
    }
    // Footpaths from the stops vehicles reached.
    for (const s of [...improved]) {
      for (let f = tt.pathFirst[s]!; f < tt.pathFirst[s + 1]!; f++) {
        if (tt.pathSeconds[f] === FORBIDDEN) continue;
        arrive(tt.pathTo[f]!, now[s]! + tt.pathSeconds[f]!, { kind: "walk", from: s });
      }
    }
    check(k);
    marked = improved;
  }

  if (!reached) return undefined;
  // Back from the stop the destination is walked to, round by round.
  const legs: Leg[] = [];
  let { round: k, stop: s } = reached;
  legs.push({ kind: "walk", fromStop: s, departure: arrivals[k]![s]!, arrival: target });
  for (;;) {
    const label = labels[k]![s]!;
    if (label.kind === "access") {
      legs.push({ kind: "walk", toStop: s, departure, arrival: arrivals[k]![s]! });
      break;
    }
    if (label.kind === "walk") {
      legs.push({
        kind: "walk",
        fromStop: label.from,
        toStop: s,
        departure: arrivals[k]![label.from]!,
        arrival: arrivals[k]![s]!,
      });
      s = label.from;
      continue;
    }
    // A ride, or rides seated through a block: each trip its leg.
    let ride: Ride | undefined = label.ride;
    let alight = label.alight;
    const rides: Leg[] = [];
    while (ride) {
      const p = tt.tripPattern[ride.trip]!;
      const stopAt = (pos: number) => tt.patternStops[tt.patternFirstStop[p]! + pos]!;
      rides.push({
        kind: "ride",
        trip: ride.trip,
        fromStop: ride.boardStop,
        toStop: stopAt(alight),
        departure: starts[ride.day]! + tripTime(tt.departure, ride.trip, ride.board),
        arrival: starts[ride.day]! + tripTime(tt.arrival, ride.trip, alight),
        ...(ride.seatedFrom && { seated: true }),
      });
      s = ride.boardStop;
      if (ride.seatedFrom)
        alight = tt.tripFirstTime[ride.seatedFrom.trip + 1]! - tt.tripFirstTime[ride.seatedFrom.trip]! - 1;
      ride = ride.seatedFrom;
    }
    legs.push(...rides);
    k--;
  }
  return { departure, arrival: target, legs: legs.reverse() };
}

/**
 * Seconds needed to change at stop s from a trip of `fromRoute` to one of `toRoute`
 * (transfers.txt: a rule naming both routes first, then one naming one of them, the longer if
 * both kinds match, then the stop's own rule; none: 0), or NO_TRANSFER.
 */
export function transferSeconds(tt: Timetable, s: number, fromRoute: number, toRoute: number): number {
  const rules = tt.stopTransfers.get(s);
  if (!rules) return 0;
  let both: number | undefined;
  let one: number | undefined;
  let none: number | undefined;
  for (const r of rules) {
    const from = r.fromRoute === undefined || r.fromRoute === fromRoute;
    const to = r.toRoute === undefined || r.toRoute === toRoute;
    if (!from || !to) continue;
    const named = (r.fromRoute !== undefined ? 1 : 0) + (r.toRoute !== undefined ? 1 : 0);
    if (named === 2) both = r.seconds;
    else if (named === 1)
      one =
        one === undefined || r.seconds === NO_TRANSFER
          ? r.seconds
          : one === NO_TRANSFER
            ? one
            : Math.max(one, r.seconds);
    else none = r.seconds;
  }
  return both ?? one ?? none ?? 0;
}
