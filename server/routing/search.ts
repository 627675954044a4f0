import { haversine } from "../geo/distance";
import type { RoadGraph } from "./graph";
import type { Mode } from "./profiles";
import { type Snap, vertexAt } from "./snap";
import { type SearchSpace, release, searchSpace } from "./search-space";
import { arcsOf, lineAlong } from "./shapes";

/**
 * Shortest (fastest) paths on the road graph (docs/routing.md#queries): a plain Dijkstra from points snapped onto
 * edges (./snap.ts) over travel time, which is the oracle the faster searches are tested
 * against. Distances are those of the fastest route.
 */

export interface Leg {
  /** seconds of the fastest route, and its length in meters */
  seconds: number;
  meters: number;
  /** with `paths`: the route's line, `[lng, lat]` from the origin's snapped point to the destination's */
  path?: [number, number][];
  /**
   * with `paths`: the arcs it runs along, the first on the origin's edge and the last on the
   * destination's (each taken part-way); none: along the origin's edge only
   */
  arcs?: number[];
  /** with `paths` or `uTurnSeconds`: how often the route turns back along the edge it came by */
  uTurns?: number;
}

/** Edges flagged with any of these bits are left out (FLAG_FERRY, FLAG_TOLL, FLAG_HIGHWAY). */
export type AvoidMask = number;

/** What a search leaves out, and what it returns beyond times and lengths. */
export interface SearchOptions {
  avoid?: AvoidMask;
  /** each route's line (Leg.path) */
  paths?: boolean;
  /** A* towards a single target (the served route); without it, the plain Dijkstra */
  goalDirected?: boolean;
  /**
   * No farther than `seconds`: targets not reached by then have no route (map matching bounds
   * its searches so). Without targets, everything reachable within them (isochrones): `arc`
   * hears of each arc the search sets out on, from `share` of it (0 but at the origin) at `at`.
   */
  within?: { seconds: number; arc?: (arc: number, share: number, at: number) => void };
  /**
   * leave the origin along this arc only (one of its edge's two), not either way; a point at a
   * vertex leaves by any arc whatever this says
   */
  leave?: number;
  /** per target, the arc it must be reached along (one of its edge's two), unless it is at a vertex */
  arriveBy?: number[];
  /**
   * the edges flagged in `edges` take `factor` times as long (alternative routes avoid the ones
   * found already); the leg's seconds then count the penalty too
   */
  slower?: { edges: Uint8Array; factor: number };
  /**
   * turning back along the edge just driven (at a vertex, a dead end's too) takes this long on
   * top: the search then knows by which arc it reached each vertex, and each leg counts its
   * U-turns (map matching: a route that goes somewhere and comes back is not a way anyone drives)
   */
  uTurnSeconds?: number;
}

/**
 * The fastest route between two snapped points for a mode by plain Dijkstra: the oracle the
 * served search (fastestRoute) is tested against. Undefined when none exists.
 */
export function dijkstra(
  g: RoadGraph,
  mode: Mode,
  from: Snap,
  to: Snap,
  avoid: AvoidMask = 0,
): Leg | undefined {
  return dijkstraMany(g, mode, from, [to], { avoid })[0];
}

/** The fastest route between two snapped points for a mode, by A*: what the API answers. */
export function fastestRoute(
  g: RoadGraph,
  mode: Mode,
  from: Snap,
  to: Snap,
  options: Omit<SearchOptions, "goalDirected"> = {},
): Leg | undefined {
  return dijkstraMany(g, mode, from, [to], { ...options, goalDirected: true })[0];
}

/** A target reached from a vertex: along `arc` for its `share`; `free` when it is at the vertex. */
interface Arrival {
  k: number;
  arc: number;
  share: number;
  free?: boolean;
}

/**
 * Targets by the vertices they are reached from: each end of their edge, with the share left.
 * A target on the origin's edge, ahead in a direction the mode may take, is offered at once
 * (`direct`: no vertex in between).
 */
function arrivalsOf(
  g: RoadGraph,
  from: Snap,
  targets: Snap[],
  allowed: (arc: number) => boolean,
  direct: (k: number, arc: number, share: number) => void,
  { arriveBy, leave }: { arriveBy?: number[]; leave?: number } = {},
) {
  const arrivals = new Map<number, Arrival[]>();
  const arrive = (vertex: number, entry: Arrival) => {
    let list = arrivals.get(vertex);
    if (!list) arrivals.set(vertex, (list = []));
    list.push(entry);
  };
  targets.forEach((to, k) => {
    // A target at a vertex is reached whichever way (as a vertex origin leaves any way).
    const by = arriveBy && vertexAt(g, to) < 0 ? arriveBy[k] : undefined;
    for (const [arc, forward] of [
      [from.forwardArc, true],
      [from.backwardArc, false],
    ] as const) {
      if (from.edge !== to.edge || !allowed(arc)) continue;
      if ((by !== undefined && by !== arc) || (leave !== undefined && leave !== arc)) continue;
      const share = forward ? to.t - from.t : from.t - to.t;
      if (share >= 0) direct(k, arc, share);
    }
    for (const [arc, share, tailArc] of [
      [to.forwardArc, to.t, to.backwardArc],
      [to.backwardArc, 1 - to.t, to.forwardArc],
    ] as const) {
      if (allowed(arc) && (by === undefined || by === arc)) arrive(g.head[tailArc]!, { k, arc, share });
    }
    // A destination at a vertex is reached on reaching the vertex, whichever way.
    const at = vertexAt(g, to);
    if (at >= 0) {
      const arc = at === g.head[to.backwardArc] ? to.forwardArc : to.backwardArc;
      arrive(at, { k, arc, share: 0, free: true });
    }
  });
  return arrivals;
}

/**
 * The fastest routes from one snapped point to several (the matrix's rows): one search that
 * stops once every target's best route is settled. Starts from the origin's virtual vertex
 * along its edge's arcs the mode may use; ends on each destination's edge part-way.
 */
export function dijkstraMany(
  g: RoadGraph,
  mode: Mode,
  from: Snap,
  targets: Snap[],
  {
    avoid = 0,
    paths = false,
    goalDirected = false,
    within,
    leave: leaveArc,
    arriveBy,
    slower,
    uTurnSeconds = 0,
  }: SearchOptions = {},
): (Leg | undefined)[] {
  const secs = g.seconds[mode];
  const V = g.lng.length;
  const leave = leaveArc !== undefined && vertexAt(g, from) < 0 ? leaveArc : undefined;
  // Turn restrictions (cars): a restricted vertex is searched once per arc it is entered by,
  // as state V + arc, so that a banned turn depends on how it was reached.
  const turns = mode === "car" && g.turnBans.length > 0;
  const states = turns ? V + g.head.length : V;
  const stateOf = (arc: number) => (turns && g.restrictedVia[g.head[arc]!] ? V + arc : g.head[arc]!);
  const ws = workspace(g, states);
  const { time, meters, done, heap, parent, prev } = ws;
  /** per target: the state its best route arrived from (-1: along the origin's edge) and the arc */
  const via = targets.map(() => ({ state: -1, arc: -1 }));
  const allowed = (arc: number) => secs[arc]! !== Infinity && (g.flags[arc]! & avoid) === 0;
  const length = (arc: number) => g.edgeLength[g.edgeOf[arc]!]!;
  const best: (Leg | undefined)[] = targets.map(() => undefined);
  const offer = (k: number, leg: Leg, state = -1, arc = -1) => {
    if (!best[k] || leg.seconds < best[k].seconds) {
      best[k] = leg;
      via[k] = { state, arc };
    }
  };
  const arrivals = arrivalsOf(
    g,
    from,
    targets,
    allowed,
    (k, arc, share) => offer(k, { seconds: share * secs[arc]!, meters: share * length(arc) }, -1, arc),
    { arriveBy, leave },
  );

  // The lower bound: straight to the single target at the mode's fastest speed on this graph
  // (consistent, so the first time a state is taken its time is final). Otherwise 0: Dijkstra.
  const goal = goalDirected && targets.length === 1 ? targets[0]! : undefined;
  const fastest = goal ? fastestSpeed(g, mode) : 0;
  const remaining = (v: number) => (goal ? haversine(g.lng[v]!, g.lat[v]!, goal.lng, goal.lat) / fastest : 0);
  const start = (arc: number, share: number) => {
    if (!allowed(arc)) return;
    within?.arc?.(arc, 1 - share, 0);
    const t = share * secs[arc]!;
    // a start: parent -1 - the origin's arc
    reach(ws, stateOf(arc), t, -1 - arc, -1, share * length(arc), t + remaining(g.head[arc]!));
  };
  if (leave === undefined || leave === from.forwardArc) start(from.forwardArc, 1 - from.t);
  if (leave === undefined || leave === from.backwardArc) start(from.backwardArc, from.t);
  // An origin at a vertex leaves it by any arc (as if entered by none: no turn is banned).
  const origin = leave === undefined ? vertexAt(g, from) : -1;
  if (origin >= 0) {
    const arc = origin === g.head[from.backwardArc] ? from.backwardArc : from.forwardArc;
    reach(ws, origin, 0, -1 - arc, -1, 0, remaining(origin));
  }
  const turning = uTurnTime(g, parent, V, origin, uTurnSeconds);
  /** The slowest of the targets' best routes so far (Infinity while one has none). */
  const bound = () => best.reduce((m, leg) => Math.max(m, leg ? leg.seconds : Infinity), 0);
  while (heap.size) {
    const f = heap.peekKey();
    const s = heap.pop();
    if (done[s]) continue;
    done[s] = 1;
    // A* with one target: the heap orders by time so far plus a lower bound of the time left.
    if ((targets.length && f >= bound()) || (within && f > within.seconds)) break;
    const key = time[s]!;
    const entered = s >= V ? s - V : -1;
    const v = entered >= 0 ? g.head[entered]! : s;
    for (const { k, arc, share, free } of arrivals.get(v) ?? []) {
      if (!free && entered >= 0 && banned(g.turnBans, entered, arc)) continue;
      const t = share ? share * secs[arc]! + turning(s, arc) : 0; // free arrivals' arcs may be closed to the mode
      offer(k, { seconds: key + t, meters: meters[s]! + share * length(arc) }, s, arc);
    }
    for (let a = g.firstArc[v]!; a < g.firstArc[v + 1]!; a++) {
      if (!allowed(a)) continue;
      if (entered >= 0 && banned(g.turnBans, entered, a)) continue;
      within?.arc?.(a, 0, key);
      const w = stateOf(a);
      const t = key + turning(s, a) + (slower?.edges[g.edgeOf[a]!] ? slower.factor * secs[a]! : secs[a]!);
      // Written out rather than through reach(): this is the search's innermost step.
      if (t < time[w]!) {
        if (time[w] === Infinity) ws.touched.push(w);
        time[w] = t;
        parent[w] = a;
        prev[w] = s;
        meters[w] = meters[s]! + length(a);
        heap.push(w, t + remaining(g.head[a]!));
      }
    }
  }
  if (paths || uTurnSeconds) {
    best.forEach(
      (leg, k) => leg && describeLeg(g, leg, arcsOf(via[k]!, parent, prev), paths, from, targets[k]!),
    );
  }
  release(ws);
  return best;
}

/**
 * The U-turn's extra time of leaving state `s` by `arc`: back along the edge it was reached by
 * (the origin's own edge for a start; an origin at a vertex came by none). Judged on the arc a
 * vertex was first reached by, which is the route's: another way in is no shorter.
 */
function uTurnTime(g: RoadGraph, parent: Int32Array, V: number, origin: number, seconds: number) {
  return (s: number, arc: number) => {
    if (!seconds || s === origin) return 0;
    const p = parent[s]!;
    const into = s >= V ? s - V : p >= 0 ? p : -1 - p;
    return g.edgeOf[into] === g.edgeOf[arc] ? seconds : 0;
  };
}

/** A leg's U-turns (how often it turns back along the edge it came by) and, with `paths`, its arcs and line. */
function describeLeg(g: RoadGraph, leg: Leg, arcs: number[], paths: boolean, from: Snap, to: Snap) {
  leg.uTurns = arcs.filter((a, i) => i > 0 && g.edgeOf[a] === g.edgeOf[arcs[i - 1]!]).length;
  if (paths) [leg.arcs, leg.path] = [arcs, lineAlong(g, from, to, arcs)];
}

/** A state reached at time `t` (if sooner than before), along `arc` from state `from`; queued by `key`. */
function reach(ws: Workspace, s: number, t: number, arc: number, from: number, meters: number, key: number) {
  if (t >= ws.time[s]!) return;
  if (ws.time[s] === Infinity) ws.touched.push(s);
  ws.time[s] = t;
  ws.parent[s] = arc;
  ws.prev[s] = from;
  ws.meters[s] = meters;
  ws.heap.push(s, key);
}

/** A search space with the state before each (`parent` the arc into a state; -1 - arc: a start
 * along the origin's edge). */
interface Workspace extends SearchSpace {
  prev: Int32Array;
}

const workspaces = new WeakMap<RoadGraph, Workspace>();

/**
 * The search's arrays for a graph, allocated once (per thread) and reset after each search by
 * what it touched: a matrix row or a short trip does not pay for the whole graph.
 */
function workspace(g: RoadGraph, states: number): Workspace {
  let w = workspaces.get(g);
  if (!w || w.time.length < states) {
    w = { ...searchSpace(states), prev: new Int32Array(states) };
    workspaces.set(g, w);
  }
  return w;
}

/** Whether the turn from arc `into` onto arc `out` is banned (pairs sorted by `into`, then `out`). */
export function banned(bans: Uint32Array, into: number, out: number): boolean {
  let lo = 0;
  let hi = bans.length / 2 - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const a = bans[2 * mid]!;
    const b = bans[2 * mid + 1]!;
    if (a === into && b === out) return true;
    if (a < into || (a === into && b < out)) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

const fastestSpeeds = new WeakMap<RoadGraph, Partial<Record<Mode, number>>>();

/** The fastest any arc of the graph is travelled by a mode (m/s), computed once. */
function fastestSpeed(g: RoadGraph, mode: Mode): number {
  let known = fastestSpeeds.get(g);
  if (!known) fastestSpeeds.set(g, (known = {}));
  let v = known[mode];
  if (v === undefined) {
    v = 0.1;
    const secs = g.seconds[mode];
    for (let a = 0; a < secs.length; a++) {
      const t = secs[a]!;
      if (t > 0 && t !== Infinity) v = Math.max(v, g.edgeLength[g.edgeOf[a]!]! / t);
    }
    known[mode] = v = v * 1.0001; // float32 times: keep the bound a bound
  }
  return v;
}
