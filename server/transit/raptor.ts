import { type Timetable } from "./timetable";
import type { Access, Leg, Itinerary } from "./itinerary";
import { Raptor } from "./rounds";

/**
 * Earliest arrival by public transport (docs/transit.md#the-search): RAPTOR (Delling, Pajor,
 * Werneck), round by round, each round one more vehicle. A round scans every pattern calling at
 * a stop the previous round improved, boarding the earliest trip that runs on its service day
 * and can be caught (the minimum transfer time of transfers.txt, per route where it says so),
 * riding on through the block into the next trip where the rider stays seated, then walks the
 * footpaths. Times are Unix seconds; a service day's times count from its noon minus 12 hours.
 */

/** The most vehicles a journey takes, and the most trips of a block ridden seated in a row. */
const MAX_ROUNDS = 8;

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
