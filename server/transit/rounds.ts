import {
  CALL_NONE,
  FORBIDDEN,
  LINK_ONLY,
  NO_TRANSFER,
  type Timetable,
  dropOffOf,
  linkKey,
  pickupOf,
} from "./timetable";
import { runsOn, serviceDateOf, serviceDayStart } from "./service-days";
import type { Access, Leg, Itinerary } from "./itinerary";
import { transferSeconds, ruleSeconds, linkLeast, footpathSeconds, tripRuleStops } from "./transfers";

/** RAPTOR's rounds (./raptor.ts): labels per round and stop, the scans, and the itinerary they lead to. */

/**
 * From when a rider at a stop may board, and, when transfers.txt has rules for the vehicle they
 * came on, that vehicle (each trip boarded is then checked: `boardable`); `link`: they walked from
 * the stop they got off at, when it arrived there.
 */
interface Ready {
  at: number;
  from?: number;
  link?: { stop: number; arrived: number };
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

const MAX_SEATED = 16;

/** One earliest-arrival search: its service days, and each round's arrivals and labels. */
export class Raptor {
  private dates: number[];
  private starts: number[];
  private running: boolean[][];
  private best: Float64Array;
  private arrivals: Float64Array[] = [];
  private labels: (Label | undefined)[][] = [];
  /** the earliest arrival at the destination so far, and how */
  private target = Infinity;
  private reached: { round: number; stop: number; egress: number } | undefined;
  private tripRuleStops: Set<number>;

  constructor(
    private tt: Timetable,
    private departure: number,
    private destination: Access[],
    arriveBy = Infinity,
  ) {
    // Arrivals after the bound are of no use: the search keeps none (target is exclusive).
    this.target = arriveBy;
    // Service days around the departure: yesterday's trips past midnight, today's, tomorrow's.
    this.dates = [-1, 0, 1, 2].map((d) => serviceDateOf(tt.timezone, departure, d));
    this.starts = this.dates.map((d) => serviceDayStart(tt.timezone, d));
    this.running = this.dates.map((d) => tt.services.map((s) => runsOn(s, d)));
    this.best = new Float64Array(tt.stops.length).fill(Infinity);
    this.tripRuleStops = tripRuleStops(tt);
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
    // The feed's footpaths from where the rider starts (a station's passageway to the next one),
    // before the first vehicle, as after every other.
    for (const s of [...marked]) {
      for (let f = this.tt.pathFirst[s]!; f < this.tt.pathFirst[s + 1]!; f++) {
        if (this.tt.pathSeconds[f] === FORBIDDEN || this.tt.pathSeconds[f] === LINK_ONLY) continue;
        const to = this.tt.pathTo[f]!;
        const t = round0[s]! + this.tt.pathSeconds[f]!;
        if (t < round0[to]!) {
          round0[to] = this.best[to] = t;
          labels0[to] = { kind: "walk", from: s };
          marked.add(to);
        }
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

  /**
   * The earliest trip of a pattern leaving position `pos` at `ready` or later, on any service
   * day, that picks up there (and that `accept` takes, when given: a transfer rule for that trip).
   */
  private earliestTrip(
    p: number,
    pos: number,
    ready: number,
    accept?: (trip: number, at: number) => boolean,
  ) {
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
        if (pickupOf(tt.callKinds[tt.tripFirstTime[t]! + pos]!) === CALL_NONE) continue;
        const at = this.starts[day]! + this.tripTime(tt.departure, t, pos);
        if (found && at >= found.at) break;
        if (accept && !accept(t, at)) continue;
        found = { trip: t, day, at };
        break;
      }
    }
    return found;
  }

  /**
   * When a rider who reached stop s in round k can board a trip of `route` there, by the rules
   * for every trip of it; `from`: the trip the rider came on, when the stop has rules for some
   * trips (each trip boarded is then checked by `boardable`).
   */
  private ready(k: number, s: number, route: number): Ready {
    const at = this.arrivals[k]![s]!;
    const label = this.labels[k]![s];
    if (at === Infinity || !label) return { at: Infinity };
    if (label.kind === "walk") return this.readyAfterWalk(k, s, label.from, at);
    if (label.kind !== "ride") return { at };
    const from = label.ride.trip;
    // Rules for some trips: each candidate is checked on its own, from the arrival on.
    if (this.tripRuleStops.has(s)) return { at, from };
    const seconds = transferSeconds(this.tt, s, from, this.tt.tripRoute[from]!, undefined, route);
    return seconds === NO_TRANSFER ? { at: Infinity } : { at: at + seconds };
  }

  /**
   * After a walk from stop `from`: where the rider got off a vehicle there and transfers.txt has
   * rules from that stop to this one, each trip boarded is checked against them (`link`).
   */
  private readyAfterWalk(k: number, s: number, from: number, at: number): Ready {
    const before = this.labels[k]![from];
    if (
      !this.tt.linkTransfers.size ||
      before?.kind !== "ride" ||
      !this.tt.linkTransfers.has(linkKey(from, s))
    )
      return { at };
    return { at, from: before.ride.trip, link: { stop: from, arrived: this.arrivals[k]![from]! } };
  }

  /**
   * Whether trip `to` (of `route`), leaving stop s at `at`, can be caught from trip `from` arrived
   * at `arrived` (at s, or at the link's stop, walked from).
   */
  private boardable(s: number, from: number, ready: Ready, route: number, to: number, at: number) {
    const fromRoute = this.tt.tripRoute[from]!;
    if (!ready.link) {
      const seconds = transferSeconds(this.tt, s, from, fromRoute, to, route);
      return seconds !== NO_TRANSFER && at >= ready.at + seconds;
    }
    const { stop, arrived } = ready.link;
    const rules = this.tt.linkTransfers.get(linkKey(stop, s))!;
    const ruled = ruleSeconds(this.tt, rules, from, fromRoute, to, route);
    // No rule for this pair of vehicles: the footpath, if anyone may walk it.
    const seconds = ruled ?? footpathSeconds(this.tt, stop, s);
    return seconds !== NO_TRANSFER && at >= arrived + seconds;
  }

  /** Whether a trip lets riders off at its `pos`th stop (drop_off_type 1: it does not). */
  private alights(trip: number, pos: number) {
    return dropOffOf(this.tt.callKinds[this.tt.tripFirstTime[trip]! + pos]!) !== CALL_NONE;
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
    // Footpaths from the stops vehicles reached; off a vehicle a link transfer names, the
    // shortest its rules allow (checked again for the vehicle boarded: `ready`).
    for (const s of [...improved]) {
      const label = nowLabels[s];
      const offTrip = label?.kind === "ride" ? label.ride.trip : undefined;
      for (let f = tt.pathFirst[s]!; f < tt.pathFirst[s + 1]!; f++) {
        const to = tt.pathTo[f]!;
        const base = tt.pathSeconds[f]!;
        const link =
          offTrip === undefined || !tt.linkTransfers.size ? undefined : linkLeast(tt, s, to, offTrip);
        const seconds = base === FORBIDDEN || base === LINK_ONLY ? link : Math.min(base, link ?? base);
        if (seconds !== undefined) arrive(to, now[s]! + seconds, { kind: "walk", from: s });
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
      if (ride && this.alights(ride.trip, pos)) {
        arrive(s, this.starts[ride.day]! + this.tripTime(tt.arrival, ride.trip, pos), {
          kind: "ride",
          ride,
          alight: pos,
        });
      }
      const ready = this.ready(k - 1, s, route);
      const { at, from } = ready;
      if (at === Infinity) continue;
      const leaving = ride ? this.starts[ride.day]! + this.tripTime(tt.departure, ride.trip, pos) : Infinity;
      if (at > leaving) continue;
      const caught =
        from === undefined
          ? this.earliestTrip(p, pos, at)
          : this.earliestTrip(p, pos, at, (to, leaves) => this.boardable(s, from, ready, route, to, leaves));
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
      if (!this.alights(ride.trip, pos)) continue;
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
      const kinds = (pos: number) => tt.callKinds[tt.tripFirstTime[ride!.trip]! + pos]!;
      const pickup = ride.seatedFrom ? 0 : pickupOf(kinds(ride.board));
      const dropOff = dropOffOf(kinds(alight));
      rides.push({
        kind: "ride",
        trip: ride.trip,
        fromStop: ride.boardStop,
        toStop: stopAt(alight),
        departure: this.starts[ride.day]! + this.tripTime(tt.departure, ride.trip, ride.board),
        arrival: this.starts[ride.day]! + this.tripTime(tt.arrival, ride.trip, alight),
        ...(ride.seatedFrom && { seated: true }),
        ...(pickup > 1 && { pickup }),
        ...(dropOff > 1 && rides.length === 0 && { dropOff }),
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
