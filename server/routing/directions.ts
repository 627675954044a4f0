import { haversine, type Position } from "../geo/distance";
import { type RoadGraph, labelOf } from "./graph";
import type { Mode, RoadLabel } from "./profiles";
import { type AvoidMask, type Leg, dijkstraMany } from "./search";
import { type Snap } from "./snap";
import { shapeBetween } from "./shapes";

/**
 * Turn-by-turn steps of a route (docs/routing.md#directions), OSRM's way: a step starts at a
 * maneuver (depart, a turn, a new name, a ramp, a roundabout with its exit number, arrive) and
 * runs to the next one. Maneuvers come from the road graph alone: the ways' names, refs, classes
 * and roundabouts, the angles between the stretches, and whether a junction offered another way
 * the mode may take. Pure: a route's arcs in, steps out (their text is ./instructions.ts's).
 */

export type ManeuverType =
  | "depart"
  | "arrive"
  | "turn"
  | "continue"
  | "new name"
  | "on ramp"
  | "off ramp"
  | "merge"
  | "fork"
  | "roundabout";

export type Modifier =
  "uturn" | "sharp right" | "right" | "slight right" | "straight" | "slight left" | "left" | "sharp left";

export interface Step {
  type: ManeuverType;
  modifier?: Modifier;
  /** roundabouts: which exit is taken (1: the first) */
  exit?: number;
  /** the way the step runs along (after the maneuver), its ref and class */
  name: string;
  ref: string;
  roadClass: string;
  /** "ferry" on a ferry, else the mode routed */
  mode: string;
  /** where the maneuver is, and the bearings (degrees from north) before and after it */
  location: Position;
  bearingBefore: number;
  bearingAfter: number;
  meters: number;
  seconds: number;
  /** the step's line, from the maneuver to the next one */
  path: Position[];
}

/** A stretch of the route along one arc (part-way at the ends): its line, label, length and time. */
export interface Piece {
  arc: number;
  label: RoadLabel;
  path: Position[];
  meters: number;
  seconds: number;
}

/** Degrees from north of the line from a to b. */
export function bearing([lng1, lat1]: Position, [lng2, lat2]: Position): number {
  const r = Math.PI / 180;
  const y = Math.sin((lng2 - lng1) * r) * Math.cos(lat2 * r);
  const x =
    Math.cos(lat1 * r) * Math.sin(lat2 * r) -
    Math.sin(lat1 * r) * Math.cos(lat2 * r) * Math.cos((lng2 - lng1) * r);
  return (Math.atan2(y, x) / r + 360) % 360;
}

/** The turn from one bearing to another, in degrees: positive to the right, -180 to 180. */
export const turnAngle = (before: number, after: number) => ((after - before + 540) % 360) - 180;

/** The modifier of a turn of `angle` degrees (positive: to the right). */
export function modifierOf(angle: number): Modifier {
  const a = Math.abs(angle);
  const side = angle > 0 ? "right" : "left";
  if (a < 20) return "straight";
  if (a < 60) return `slight ${side}`;
  if (a < 135) return side;
  if (a < 170) return `sharp ${side}`;
  return "uturn";
}

/** The bearing of a line at its start (at its end with `atEnd`), over its first (last) few meters. */
function bearingOf(path: Position[], atEnd: boolean): number {
  const pts = atEnd ? [...path].reverse() : path;
  const a = pts[0]!;
  // The first point at least 5 m away (a shape's tiny first segment says little of the road).
  let b = pts[1] ?? a;
  for (const p of pts.slice(1)) {
    b = p;
    if (haversine(a[0], a[1], p[0], p[1]) >= 5) break;
  }
  return atEnd ? bearing(b, a) : bearing(a, b);
}

/** The length and time of a route along arcs (the first and last part-way), without any penalty. */
export function measure(g: RoadGraph, mode: Mode, from: Snap, to: Snap, arcs: number[]) {
  const pieces = piecesOf(g, mode, from, to, arcs);
  return {
    meters: pieces.reduce((sum, p) => sum + p.meters, 0),
    seconds: pieces.reduce((sum, p) => sum + p.seconds, 0),
  };
}

/** The route's pieces: one per arc, the first from the origin's snapped point, the last to the destination's. */
export function piecesOf(g: RoadGraph, mode: Mode, from: Snap, to: Snap, arcs: number[]): Piece[] {
  const secs = g.seconds[mode];
  const forward = (arc: number) => g.reversed[arc] === 0;
  const piece = (arc: number, t0: number, t1: number): Piece => {
    const share = Math.abs(t1 - t0);
    return {
      arc,
      label: labelOf(g, arc),
      path: shapeBetween(g, g.edgeOf[arc]!, t0, t1),
      meters: share * g.edgeLength[g.edgeOf[arc]!]!,
      seconds: share * secs[arc]!,
    };
  };
  if (!arcs.length) {
    const arc = to.t >= from.t ? from.forwardArc : from.backwardArc;
    return [piece(arc, from.t, to.t)];
  }
  const last = arcs.length - 1;
  return arcs
    .map((arc, i) => {
      const start = forward(arc) ? 0 : 1;
      const end = 1 - start;
      return piece(arc, i === 0 ? from.t : start, i === last ? to.t : end);
    })
    .filter((p, i) => p.meters > 0.01 || i === 0);
}

const isRamp = (c: string) => /_link$/.test(c);
const isMotorway = (c: string) => /^(motorway|trunk)$/.test(c);
const sameRoad = (a: RoadLabel, b: RoadLabel) =>
  a.name === b.name && a.ref === b.ref && (a.name !== "" || a.ref !== "" || a.class === b.class);

/** The arcs the mode may take out of the vertex an arc ends at, other than going back along it. */
function choicesAt(g: RoadGraph, mode: Mode, arc: number): number[] {
  const v = g.head[arc]!;
  const out: number[] = [];
  for (let a = g.firstArc[v]!; a < g.firstArc[v + 1]!; a++) {
    if (g.seconds[mode][a] === Infinity || g.edgeOf[a] === g.edgeOf[arc]) continue;
    out.push(a);
  }
  return out;
}

/** The first leg of an arc's edge from the vertex it leaves: its bearing. */
function arcBearing(g: RoadGraph, arc: number): number {
  const e = g.edgeOf[arc]!;
  const shape = shapeBetween(g, e, g.reversed[arc] ? 1 : 0, g.reversed[arc] ? 0 : 1);
  return bearingOf(shape, false);
}

/**
 * What happens where one piece ends and the next starts: no maneuver (null: the step goes on),
 * or its type and modifier.
 */
function maneuverBetween(g: RoadGraph, mode: Mode, a: Piece, b: Piece, angle: number) {
  const [x, y] = [a.label, b.label];
  if (y.roundabout && !x.roundabout) return { type: "roundabout" as const };
  if (y.roundabout) return null; // going round: counted as exits passed
  const choices = choicesAt(g, mode, a.arc);
  const others = choices.filter((c) => c !== b.arc);
  const modifier = modifierOf(angle);
  if (x.roundabout) return { type: "exit" as const, modifier };
  if (x.class === "ferry" || y.class === "ferry") {
    return x.class === y.class && sameRoad(x, y) ? null : { type: "new name" as const, modifier };
  }
  if (isRamp(y.class) && !isRamp(x.class)) {
    return { type: isMotorway(x.class) ? ("off ramp" as const) : ("on ramp" as const), modifier };
  }
  // Merging: the side the road joined lies on (a slip road from the right merges left).
  if (isRamp(x.class) && isMotorway(y.class))
    return {
      type: "merge" as const,
      modifier: angle > 0 ? ("slight left" as const) : ("slight right" as const),
    };
  const renamed = !sameRoad(x, y);
  if (!others.length) {
    // No other way to take: a bend in the road, or the same road under another name.
    if (!renamed) return null;
    return { type: Math.abs(angle) < 45 ? ("new name" as const) : ("turn" as const), modifier };
  }
  // Another way was possible: say which one unless this one goes straight on where the others turn off.
  const straightOn =
    Math.abs(angle) < 35 &&
    others.every(
      (o) => Math.abs(turnAngle(bearingOf(a.path, true), arcBearing(g, o))) > Math.abs(angle) + 20,
    );
  if (!renamed && straightOn) return null;
  if (!renamed) {
    if (Math.abs(angle) < 20) return null;
    // A fork: two ways ahead, neither a turn.
    const ahead = others.filter((o) => Math.abs(turnAngle(bearingOf(a.path, true), arcBearing(g, o))) < 45);
    if (ahead.length && Math.abs(angle) < 45) return { type: "fork" as const, modifier };
    return { type: "continue" as const, modifier };
  }
  return { type: straightOn ? ("new name" as const) : ("turn" as const), modifier };
}

/** A new step starting with a piece: its maneuver, the road it runs along, nothing travelled yet. */
function stepOn(
  p: Piece,
  mode: string,
  type: ManeuverType,
  at: Position,
  bearings: [number, number],
  extra: { modifier?: Modifier; exit?: number } = {},
): Step {
  return {
    type,
    ...extra,
    name: p.label.name,
    ref: p.label.ref,
    roadClass: p.label.class,
    mode: p.label.class === "ferry" ? "ferry" : mode,
    location: at,
    bearingBefore: Math.round(bearings[0]),
    bearingAfter: Math.round(bearings[1]),
    meters: 0,
    seconds: 0,
    path: [],
  };
}

/** Adds a piece's length, time and line to a step. */
function extend(step: Step, p: Piece) {
  step.meters += p.meters;
  step.seconds += p.seconds;
  for (const pt of p.path) {
    const last = step.path[step.path.length - 1];
    if (!last || last[0] !== pt[0] || last[1] !== pt[1]) step.path.push(pt);
  }
}

/**
 * The steps of one leg: depart, the maneuvers along it, arrive. `destination` is the point asked
 * for (its side of the road is the arrival's modifier).
 */
export function stepsOf(
  g: RoadGraph,
  mode: Mode,
  from: Snap,
  to: Snap,
  arcs: number[],
  destination?: Position,
): Step[] {
  const pieces = piecesOf(g, mode, from, to, arcs);
  const start = pieces[0]!;
  let current = stepOn(start, mode, "depart", start.path[0]!, [0, bearingOf(start.path, false)]);
  const steps: Step[] = [current];
  // A roundabout step being built: its exits passed so far.
  let roundabout: Step | undefined;
  extend(current, start);
  for (let i = 1; i < pieces.length; i++) {
    const [a, b] = [pieces[i - 1]!, pieces[i]!];
    const before = bearingOf(a.path, true);
    const after = bearingOf(b.path, false);
    const angle = turnAngle(before, after);
    const m = maneuverBetween(g, mode, a, b, angle);
    if (roundabout && b.label.roundabout) {
      // Still going round: an exit the mode could have taken here is one more passed.
      if (choicesAt(g, mode, a.arc).some((c) => c !== b.arc && !labelOf(g, c).roundabout)) roundabout.exit!++;
    }
    if (m && m.type === "exit" && roundabout) {
      // Out of the roundabout: the step goes on along the road taken, named after it.
      roundabout.exit!++;
      roundabout.modifier = modifierOf(turnAngle(roundabout.bearingBefore, after));
      roundabout.name = b.label.name;
      roundabout.ref = b.label.ref;
      roundabout.roadClass = b.label.class;
      roundabout = undefined;
    } else if (m && m.type !== "exit") {
      const extra = {
        ...("modifier" in m && { modifier: m.modifier }),
        ...(m.type === "roundabout" && { exit: 0 }),
      };
      current = stepOn(b, mode, m.type, b.path[0]!, [before, after], extra);
      if (m.type === "roundabout") roundabout = current;
      steps.push(current);
    }
    extend(current, b);
  }
  // Ended inside a roundabout: the destination is on it.
  if (roundabout) {
    roundabout.exit = Math.max(1, roundabout.exit!);
    roundabout.modifier = "straight";
  }
  const end = pieces[pieces.length - 1]!;
  const endBearing = bearingOf(end.path, true);
  const at = end.path[end.path.length - 1]!;
  const arrive = stepOn(
    end,
    mode,
    "arrive",
    at,
    [endBearing, 0],
    destination && sideOf(at, endBearing, destination),
  );
  arrive.path = [at, at];
  steps.push(arrive);
  return steps;
}

/** Which side of the road (travelling along `heading` at `at`) a destination off it lies on. */
function sideOf(at: Position, heading: number, destination: Position): { modifier?: Modifier } {
  if (haversine(at[0], at[1], destination[0], destination[1]) < 3) return {};
  const angle = turnAngle(heading, bearing(at, destination));
  if (Math.abs(angle) < 20 || Math.abs(angle) > 160) return {};
  return { modifier: angle > 0 ? "right" : "left" };
}

/** Alternatives: how much slower the edges of the routes found already become, how many, how different. */
const ALTERNATIVES = { penalty: 1.6, most: 2, slowest: 1.4, shared: 0.75 };

/**
 * Other routes than the best between two snapped points, by penalty: the search runs again with
 * the edges of the routes found so far made 1.6 times slower; a route found is kept when it is
 * at most 40% slower than the best (its own times, without the penalty) and shares at most three
 * quarters of its length with the routes before it. At most two.
 */
export function alternativeRoutes(
  g: RoadGraph,
  mode: Mode,
  from: Snap,
  to: Snap,
  best: Leg,
  avoid: AvoidMask = 0,
): { leg: Leg; arcs: number[] }[] {
  const slower = new Uint8Array(g.edgeLength.length);
  let last = best.arcs ?? [];
  const kept: { leg: Leg; arcs: number[] }[] = [];
  for (let k = 0; k < ALTERNATIVES.most; k++) {
    for (const a of last) slower[g.edgeOf[a]!] = 1;
    const [alt] = dijkstraMany(g, mode, from, [to], {
      avoid,
      paths: true,
      goalDirected: true,
      slower: { edges: slower, factor: ALTERNATIVES.penalty },
    });
    if (!alt?.arcs?.length) break;
    last = alt.arcs;
    const real = measure(g, mode, from, to, alt.arcs);
    const shared = alt.arcs.reduce(
      (sum, a) => sum + (slower[g.edgeOf[a]!] ? g.edgeLength[g.edgeOf[a]!]! : 0),
      0,
    );
    if (real.seconds > ALTERNATIVES.slowest * best.seconds || shared > ALTERNATIVES.shared * real.meters)
      continue;
    kept.push({ leg: { ...real, path: alt.path }, arcs: alt.arcs });
  }
  return kept;
}
