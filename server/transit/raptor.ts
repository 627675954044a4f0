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
  const search = new Raptor(tt, departure, destination);
  let marked = search.start(origin);
  for (let k = 1; k <= MAX_ROUNDS && marked.size; k++) marked = search.round(k, marked);
  return search.itinerary();
}

/** One earliest-arrival search: its service days, and each round's arrivals and labels. */
class Raptor {
  private dates: number[];
  private starts: number[];
  private running: boolean[][];
  private best: Float64Array;
  private arrivals: Float64Array[] = [];
  private labels: (Label | undefined)[][] = [];
  /** the earliest arrival at the destination so far, and how */
  private target = Infinity;
  private reached: { round: number; stop: number; egress: number } | undefined;

  constructor(
    private tt: Timetable,
    private departure: number,
    private destination: Access[],
  ) {
    // Service days around the departure: yesterday's trips past midnight, today's, tomorrow's.
    this.dates = [-1, 0, 1, 2].map((d) => serviceDateOf(tt.timezone, departure, d));
    this.starts = this.dates.map((d) => serviceDayStart(tt.timezone, d));
    this.running = this.dates.map((d) => tt.services.map((s) => runsOn(s, d)));
    this.best = new Float64Array(tt.stops.length).fill(Infinity);
  }

  /** Round 0: the stops walked to from the origin. Returns the stops marked. */
  start(origin: Access[]) {
    const round0 = new Float64Array(this.tt.stops.length).fill(Infinity);
    const labels0: (Label | undefined)[] = [];
    const marked = new Set<number>();
    for (const a of origin) {
      const t = this.departure + a.seconds;
      if (t < round0[a.stop]!) {
        round0[a.stop] = this.best[a.stop] = t;
        labels0[a.stop] = { kind: "access" };
        marked.add(a.stop);
      }
    }
    this.arrivals.push(round0);
    this.labels.push(labels0);
    this.check(0);
    return marked;
  }

  /** Whether round k reaches the destination earlier than any round before. */
  private check(k: number) {
    for (const e of this.destination) {
      const t = this.arrivals[k]![e.stop]! + e.seconds;
      if (t < this.target) {
        this.target = t;
        this.reached = { round: k, stop: e.stop, egress: e.seconds };
      }
    }
  }

  private tripTime(times: Int32Array, t: number, pos: number) {
    return times[this.tt.tripFirstTime[t]! + pos]!;
  }

  /** The earliest trip of a pattern leaving position `pos` at `ready` or later, on any service day. */
  private earliestTrip(p: number, pos: number, ready: number) {
    const tt = this.tt;
    let found: { trip: number; day: number; at: number } | undefined;
    const first = tt.patternFirstTrip[p]!;
    const end = tt.patternFirstTrip[p + 1]!;
    for (let day = 0; day < this.dates.length; day++) {
      const local = ready - this.starts[day]!;
      let lo = first;
      let hi = end;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (this.tripTime(tt.departure, tt.patternTrips[mid]!, pos) < local) lo = mid + 1;
        else hi = mid;
      }
      for (let k = lo; k < end; k++) {
        const t = tt.patternTrips[k]!;
        if (!this.running[day]![tt.tripService[t]!]) continue;
        const at = this.starts[day]! + this.tripTime(tt.departure, t, pos);
        if (!found || at < found.at) found = { trip: t, day, at };
        break;
      }
    }
    return found;
  }

  /** When a rider who reached stop s in round k can board a trip of `route` there. */
  private ready(k: number, s: number, route: number) {
    const at = this.arrivals[k]![s]!;
    const label = this.labels[k]![s];
    if (at === Infinity || !label) return Infinity;
    if (label.kind !== "ride") return at;
    const seconds = transferSeconds(this.tt, s, this.tt.tripRoute[label.ride.trip]!, route);
    return seconds === NO_TRANSFER ? Infinity : at + seconds;
  }

  /** Round k: one more vehicle from the stops the round before marked, then footpaths. */
  round(k: number, marked: Set<number>) {
    const tt = this.tt;
    const now = new Float64Array(tt.stops.length).fill(Infinity);
    const nowLabels: (Label | undefined)[] = [];
    this.arrivals.push(now);
    this.labels.push(nowLabels);
    const improved = new Set<number>();
    const arrive = (s: number, at: number, label: Label) => {
      if (at < this.best[s]! && at < this.target) {
        now[s] = this.best[s] = at;
        nowLabels[s] = label;
        improved.add(s);
      }
    };
    for (const [p, first] of this.patternsAt(marked)) this.scanPattern(k, p, first, arrive);
    // Footpaths from the stops vehicles reached.
    for (const s of [...improved]) {
      for (let f = tt.pathFirst[s]!; f < tt.pathFirst[s + 1]!; f++) {
        if (tt.pathSeconds[f] === FORBIDDEN) continue;
        arrive(tt.pathTo[f]!, now[s]! + tt.pathSeconds[f]!, { kind: "walk", from: s });
      }
    }
    this.check(k);
    return improved;
  }

  /** The patterns calling at marked stops, each from the first position a marked stop has in it. */
  private patternsAt(marked: Set<number>) {
    const tt = this.tt;
    const queue = new Map<number, number>();
    for (const s of marked) {
      for (let k = tt.stopFirstPattern[s]!; k < tt.stopFirstPattern[s + 1]!; k++) {
        const p = tt.stopPatterns[k]!;
        const pos = tt.stopPatternPosition[k]!;
        if (pos < (queue.get(p) ?? Infinity)) queue.set(p, pos);
      }
    }
    return queue;
  }

  /** Rides pattern p from position `first`: alighting everywhere, boarding the earliest trip catchable. */
  private scanPattern(k: number, p: number, first: number, arrive: Arrive) {
    const tt = this.tt;
    const base = tt.patternFirstStop[p]!;
    const length = tt.patternFirstStop[p + 1]! - base;
    const route = tt.tripRoute[tt.patternTrips[tt.patternFirstTrip[p]!]!]!;
    let ride: Ride | undefined;
    for (let pos = first; pos < length; pos++) {
      const s = tt.patternStops[base + pos]!;
      if (ride) {
        arrive(s, this.starts[ride.day]! + this.tripTime(tt.arrival, ride.trip, pos), {
          kind: "ride",
          ride,
          alight: pos,
        });
      }
      const at = this.ready(k - 1, s, route);
      if (at === Infinity) continue;
      const leaving = ride ? this.starts[ride.day]! + this.tripTime(tt.departure, ride.trip, pos) : Infinity;
      if (at > leaving) continue;
      const caught = this.earliestTrip(p, pos, at);
      if (caught && caught.at < leaving) {
        ride = { trip: caught.trip, day: caught.day, board: pos, boardStop: s };
      }
    }
    // Seated into the block's next trip: ridden on in this round (no transfer).
    if (ride) this.seatedInto(ride, 1, arrive);
  }

  /** Rides a trip from position `from` to its end, then on into the block's next trip. */
  private rideOn(ride: Ride, from: number, depth: number, arrive: Arrive) {
    const tt = this.tt;
    const p = tt.tripPattern[ride.trip]!;
    const base = tt.patternFirstStop[p]!;
    const length = tt.patternFirstStop[p + 1]! - base;
    for (let pos = from; pos < length; pos++) {
      arrive(
        tt.patternStops[base + pos]!,
        this.starts[ride.day]! + this.tripTime(tt.arrival, ride.trip, pos),
        {
          kind: "ride",
          ride,
          alight: pos,
        },
      );
    }
    if (depth < MAX_SEATED) this.seatedInto(ride, depth + 1, arrive);
  }

  /** The block's next trip running that service day, ridden on from its second stop. */
  private seatedInto(ride: Ride, depth: number, arrive: Arrive) {
    const tt = this.tt;
    for (const next of tt.blockNext.get(ride.trip) ?? []) {
      if (!this.running[ride.day]![tt.tripService[next]!]) continue;
      const stop = tt.patternStops[tt.patternFirstStop[tt.tripPattern[next]!]!]!;
      this.rideOn(
        { trip: next, day: ride.day, board: 0, boardStop: stop, seatedFrom: ride },
        1,
        depth,
        arrive,
      );
      return;
    }
  }

  /** The journey to the destination, back from the stop it is walked to, round by round. */
  itinerary(): Itinerary | undefined {
    if (!this.reached) return undefined;
    const { arrivals, labels, departure, target } = this;
    const legs: Leg[] = [];
    let { round: k, stop: s } = this.reached;
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
      const { rides, boardStop } = this.ridesOf(label.ride, label.alight);
      legs.push(...rides);
      s = boardStop;
      k--;
    }
    return { departure, arrival: target, legs: legs.reverse() };
  }

  /** A ride, or rides seated through a block: each trip its leg (last first), and where it began. */
  private ridesOf(last: Ride, lastAlight: number) {
    const tt = this.tt;
    let ride: Ride | undefined = last;
    let alight = lastAlight;
    let boardStop = last.boardStop;
    const rides: Leg[] = [];
    while (ride) {
      const p = tt.tripPattern[ride.trip]!;
      const stopAt = (pos: number) => tt.patternStops[tt.patternFirstStop[p]! + pos]!;
      rides.push({
        kind: "ride",
        trip: ride.trip,
        fromStop: ride.boardStop,
        toStop: stopAt(alight),
        departure: this.starts[ride.day]! + this.tripTime(tt.departure, ride.trip, ride.board),
        arrival: this.starts[ride.day]! + this.tripTime(tt.arrival, ride.trip, alight),
        ...(ride.seatedFrom && { seated: true }),
      });
      boardStop = ride.boardStop;
      if (ride.seatedFrom)
        alight = tt.tripFirstTime[ride.seatedFrom.trip + 1]! - tt.tripFirstTime[ride.seatedFrom.trip]! - 1;
      ride = ride.seatedFrom;
    }
    return { rides, boardStop };
  }
}

type Arrive = (s: number, at: number, label: Label) => void;

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
