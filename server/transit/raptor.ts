import {
  CALL_NONE,
  FORBIDDEN,
  LINK_ONLY,
  NO_TRANSFER,
  type Timetable,
  type TransferRule,
  dropOffOf,
  linkKey,
  pickupOf,
  runsOn,
  serviceDateOf,
  serviceDayStart,
} from "./timetable";

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
      /** pickup_type / drop_off_type where boarded and left when not a regular stop: 2 phone, 3 ask the driver */
      pickup?: number;
      dropOff?: number;
    };

export interface Itinerary {
  departure: number;
  arrival: number;
  legs: Leg[];
}

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

/** The most vehicles a journey takes, and the most trips of a block ridden seated in a row. */
const MAX_ROUNDS = 8;
const MAX_SEATED = 16;

export function earliestArrival(
  tt: Timetable,
  origin: Access[],
  destination: Access[],
  departure: number,
  /** only journeys arriving by then (a bound that prunes the search) */
  arriveBy = Infinity,
): Itinerary | undefined {
  const search = new Raptor(tt, departure, destination, arriveBy);
  let marked = search.start(origin);
  for (let k = 1; k <= MAX_ROUNDS && marked.size; k++) marked = search.round(k, marked);
  return search.itinerary();
}

/**
 * The earliest arrival, and of the journeys that arrive then, the one that leaves latest (then
 * the one with the fewest vehicles): leaving earlier only to wait at a stop helps no rider. From
 * the journey found, each step leaves just after its first vehicle could still be caught and asks
 * for a journey arriving by the same time (a search the bound prunes); the step that finds none
 * ends it. So it takes one search per later first vehicle that still arrives in time, plus one.
 * The answer's `departure` is when to leave, no earlier than `departure`.
 */
export function latestEarliestArrival(
  tt: Timetable,
  origin: Access[],
  destination: Access[],
  departure: number,
): Itinerary | undefined {
  let best = earliestArrival(tt, origin, destination, departure);
  if (!best) return undefined;
  const arrival = best.arrival;
  const leaveBy = (it: Itinerary) => {
    const ride = it.legs.find((l) => l.kind === "ride");
    if (!ride) return undefined;
    return ride.departure - (origin.find((a) => a.stop === ride.fromStop)?.seconds ?? 0);
  };
  for (let steps = 0; steps < MAX_LATER_STEPS; steps++) {
    const latest = leaveBy(best);
    if (latest === undefined) return best;
    const later = earliestArrival(tt, origin, destination, latest + 1, arrival + 1);
    if (!later || later.arrival > arrival) break;
    best = later;
  }
  // Left as late as its first vehicle allows.
  const latest = leaveBy(best);
  return latest !== undefined && latest > best.departure
    ? { ...best, departure: latest, legs: leftAt(best, latest) }
    : best;
}

/** The most later first vehicles tried (a day's worth of departures every minute is far more). */
const MAX_LATER_STEPS = 64;

/** A journey's legs when it is left at `at`: the first walk starts then, no waiting before it. */
function leftAt(it: Itinerary, at: number): Leg[] {
  const [first, ...rest] = it.legs;
  if (!first || first.kind !== "walk") return it.legs;
  const walk = first.arrival - first.departure;
  return [{ ...first, departure: at, arrival: at + walk }, ...rest];
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

/**
 * Seconds needed to change at stop s from trip `fromTrip` (of `fromRoute`) to trip `toTrip` (of
 * `toRoute`; undefined: any trip of it), or NO_TRANSFER. Of the rules that match, the most
 * specific decides, in the reference's order: both trips named, a trip and a route, one trip,
 * both routes, one route, the stop alone; at each, a rule written for the stop before one written
 * for its station; rules as specific as each other: the strictest. No rule: 0.
 */
export function transferSeconds(
  tt: Timetable,
  s: number,
  fromTrip: number,
  fromRoute: number,
  toTrip: number | undefined,
  toRoute: number,
): number {
  const rules = tt.stopTransfers.get(s);
  return (rules && ruleSeconds(tt, rules, fromTrip, fromRoute, toTrip, toRoute)) ?? 0;
}

/**
 * The seconds the most specific of `rules` matching the change asks (as transferSeconds), or
 * undefined when none matches.
 */
function ruleSeconds(
  tt: Timetable,
  rules: readonly TransferRule[],
  fromTrip: number,
  fromRoute: number,
  toTrip: number | undefined,
  toRoute: number,
): number | undefined {
  const fromTemplate = tt.tripTemplate[fromTrip];
  const toTemplate = toTrip === undefined ? undefined : tt.tripTemplate[toTrip];
  let rank = -1;
  let seconds: number | undefined;
  for (const r of rules) {
    if (r.fromTrip !== undefined && r.fromTrip !== fromTemplate) continue;
    if (r.toTrip !== undefined && r.toTrip !== toTemplate) continue;
    if (r.fromRoute !== undefined && r.fromRoute !== fromRoute) continue;
    if (r.toRoute !== undefined && r.toRoute !== toRoute) continue;
    const rrank = specificity(r) * 2 + (r.station ? 0 : 1);
    if (rrank > rank) {
      rank = rrank;
      seconds = r.seconds;
    } else if (rrank === rank && seconds !== NO_TRANSFER) {
      seconds = r.seconds === NO_TRANSFER ? NO_TRANSFER : Math.max(seconds!, r.seconds);
    }
  }
  return seconds;
}

/**
 * The fewest seconds the link transfers from stop `from` to stop `to` allow a rider off trip
 * `offTrip` (whichever vehicle is boarded next), or undefined when none is for that trip.
 */
function linkLeast(tt: Timetable, from: number, to: number, offTrip: number): number | undefined {
  const rules = tt.linkTransfers.get(linkKey(from, to));
  if (!rules) return undefined;
  const template = tt.tripTemplate[offTrip];
  const route = tt.tripRoute[offTrip];
  let least: number | undefined;
  for (const r of rules) {
    if (r.fromTrip !== undefined && r.fromTrip !== template) continue;
    if (r.fromRoute !== undefined && r.fromRoute !== route) continue;
    if (r.seconds !== NO_TRANSFER && (least === undefined || r.seconds < least)) least = r.seconds;
  }
  return least;
}

/** The footpath's seconds from one stop to another, or NO_TRANSFER (none, forbidden, or only for link transfers). */
function footpathSeconds(tt: Timetable, from: number, to: number): number {
  for (let f = tt.pathFirst[from]!; f < tt.pathFirst[from + 1]!; f++) {
    if (tt.pathTo[f] !== to) continue;
    const seconds = tt.pathSeconds[f]!;
    return seconds === FORBIDDEN || seconds === LINK_ONLY ? NO_TRANSFER : seconds;
  }
  return NO_TRANSFER;
}

/** transfers.txt's order of specificity, 5 (both trips) to 0 (the stops alone). */
function specificity(r: TransferRule): number {
  const trips = (r.fromTrip !== undefined ? 1 : 0) + (r.toTrip !== undefined ? 1 : 0);
  const routes = (r.fromRoute !== undefined ? 1 : 0) + (r.toRoute !== undefined ? 1 : 0);
  if (trips === 2) return 5;
  if (trips === 1) return routes > 0 ? 4 : 3;
  return routes === 2 ? 2 : routes === 1 ? 1 : 0;
}

/** The stops of a timetable with rules for some trips (checked trip by trip when boarding there). */
const tripRuleStopsOf = new WeakMap<Timetable, Set<number>>();
function tripRuleStops(tt: Timetable): Set<number> {
  let found = tripRuleStopsOf.get(tt);
  if (!found) {
    found = new Set();
    for (const [s, rules] of tt.stopTransfers) {
      if (rules.some((r) => r.fromTrip !== undefined || r.toTrip !== undefined)) found.add(s);
    }
    tripRuleStopsOf.set(tt, found);
  }
  return found;
}
