import { FORBIDDEN, LINK_ONLY, NO_TRANSFER, type Timetable, type TransferRule, linkKey } from "./timetable";

/** How long a change takes (transfers.txt rules) and how long a walk between stops. */

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
export function ruleSeconds(
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
export function linkLeast(tt: Timetable, from: number, to: number, offTrip: number): number | undefined {
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
export function footpathSeconds(tt: Timetable, from: number, to: number): number {
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

export function tripRuleStops(tt: Timetable): Set<number> {
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
