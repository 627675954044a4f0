import Flatbush from "flatbush";
import { haversine, localProjection } from "../geo/distance";
import type { RoadGraph } from "./graph";
import type { Mode } from "./profiles";

/**
 * Shortest (fastest) paths on the road graph (docs/routing.md#queries): snapping a point onto
 * the nearest edge a mode may use (a virtual vertex part-way along it, not the nearest junction),
 * and a plain Dijkstra over travel time, which is the oracle the faster searches are tested
 * against. Distances are those of the fastest route.
 */

/** A point on an edge: `t` the share of the edge's length from its first vertex. */
export interface Snap {
  edge: number;
  t: number;
  lng: number;
  lat: number;
  /** meters from the point asked about */
  distance: number;
  /** the arcs along the edge: forward (first vertex to last) and backward */
  forwardArc: number;
  backwardArc: number;
}

/** An index of the edges' boxes, built once per graph. */
export function edgeIndex(g: RoadGraph): Flatbush {
  const E = g.edgeLength.length;
  const index = new Flatbush(Math.max(E, 1));
  for (let e = 0; e < E; e++) {
    let minLng = Infinity;
    let minLat = Infinity;
    let maxLng = -Infinity;
    let maxLat = -Infinity;
    for (let p = g.edgeFirstPoint[e]!; p < g.edgeFirstPoint[e + 1]!; p++) {
      minLng = Math.min(minLng, g.pointLng[p]!);
      maxLng = Math.max(maxLng, g.pointLng[p]!);
      minLat = Math.min(minLat, g.pointLat[p]!);
      maxLat = Math.max(maxLat, g.pointLat[p]!);
    }
    index.add(minLng, minLat, maxLng, maxLat);
  }
  if (E === 0) index.add(0, 0, 0, 0);
  index.finish();
  return index;
}

/** The two arcs of each edge, found once: arcsOfEdge[2e] forward, [2e + 1] backward. */
export function arcsOfEdges(g: RoadGraph): Uint32Array {
  const out = new Uint32Array(2 * g.edgeLength.length);
  for (let a = 0; a < g.head.length; a++) out[2 * g.edgeOf[a]! + g.reversed[a]!] = a;
  return out;
}

/** Where a point projects onto an edge's shape: the nearest point, its distance and share `t`. */
export function projectOnEdge(g: RoadGraph, e: number, lng: number, lat: number) {
  const project = localProjection(lng, lat);
  const first = g.edgeFirstPoint[e]!;
  const last = g.edgeFirstPoint[e + 1]! - 1;
  let best = { d2: Infinity, along: 0, x: 0, y: 0, lng: g.pointLng[first]!, lat: g.pointLat[first]! };
  let walked = 0;
  for (let p = first; p < last; p++) {
    const [ax, ay] = project([g.pointLng[p]!, g.pointLat[p]!]);
    const [bx, by] = project([g.pointLng[p + 1]!, g.pointLat[p + 1]!]);
    const dx = bx - ax;
    const dy = by - ay;
    const len2 = dx * dx + dy * dy;
    const u = len2 === 0 ? 0 : Math.max(0, Math.min(1, -(ax * dx + ay * dy) / len2));
    const x = ax + u * dx;
    const y = ay + u * dy;
    const d2 = x * x + y * y;
    const segment = haversine(g.pointLng[p]!, g.pointLat[p]!, g.pointLng[p + 1]!, g.pointLat[p + 1]!);
    if (d2 < best.d2) {
      best = {
        d2,
        along: walked + u * segment,
        x,
        y,
        lng: g.pointLng[p]! + u * (g.pointLng[p + 1]! - g.pointLng[p]!),
        lat: g.pointLat[p]! + u * (g.pointLat[p + 1]! - g.pointLat[p]!),
      };
    }
    walked += segment;
  }
  const length = g.edgeLength[e]!;
  return {
    distance: Math.sqrt(best.d2),
    t: length > 0 ? best.along / length : 0,
    lng: best.lng,
    lat: best.lat,
  };
}

/**
 * The nearest point within `reach` meters on an edge the mode may travel (either way), or
 * undefined. `usable` filters further (the main connected component, avoided edges). Looks
 * 50 m around first and widens fourfold until it finds one as near as it looked: an edge
 * outside the box looked in is farther than the box is wide.
 */
export function snap(
  g: RoadGraph,
  index: Flatbush,
  arcs: Uint32Array,
  lng: number,
  lat: number,
  mode: Mode,
  reach: number,
  usable: (edge: number) => boolean = () => true,
): Snap | undefined {
  const secs = g.seconds[mode];
  const metersPerDegreeLng = 111_320 * Math.max(0.01, Math.cos((lat * Math.PI) / 180));
  let best: Snap | undefined;
  for (let radius = Math.min(50, reach); ; radius = Math.min(reach, radius * 4)) {
    const dLat = radius / 111_320;
    const dLng = radius / metersPerDegreeLng;
    for (const e of index.search(lng - dLng, lat - dLat, lng + dLng, lat + dLat)) {
      if (e >= g.edgeLength.length || e === best?.edge) continue;
      const forwardArc = arcs[2 * e]!;
      const backwardArc = arcs[2 * e + 1]!;
      if (secs[forwardArc] === Infinity && secs[backwardArc] === Infinity) continue;
      if (!usable(e)) continue;
      const hit = projectOnEdge(g, e, lng, lat);
      if (hit.distance <= reach && (!best || hit.distance < best.distance)) {
        best = { edge: e, ...hit, forwardArc, backwardArc };
      }
    }
    if ((best && best.distance <= radius) || radius >= reach) return best;
  }
}

/** How near an end of its edge (meters) a snapped point is taken to be at that vertex. */
const AT_VERTEX_M = 0.01;

/**
 * The vertex a snapped point lies at (an end of its edge: the point asked about was at a
 * junction, or beyond a road's end), or -1. Such a point may leave or be reached by any arc of
 * the vertex, not only along its own edge.
 */
export function vertexAt(g: RoadGraph, s: Snap): number {
  const length = g.edgeLength[s.edge]!;
  if (s.t * length <= AT_VERTEX_M) return g.head[s.backwardArc]!;
  if ((1 - s.t) * length <= AT_VERTEX_M) return g.head[s.forwardArc]!;
  return -1;
}

/** A binary min-heap of vertices by key, over typed arrays (decrease-key by re-insertion). */
export class Heap {
  private keys: Float64Array;
  private items: Uint32Array;
  size = 0;

  constructor(capacity = 1024) {
    this.keys = new Float64Array(capacity);
    this.items = new Uint32Array(capacity);
  }

  push(item: number, key: number) {
    if (this.size === this.keys.length) {
      const keys = new Float64Array(this.size * 2);
      keys.set(this.keys);
      const items = new Uint32Array(this.size * 2);
      items.set(this.items);
      this.keys = keys;
      this.items = items;
    }
    let i = this.size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.keys[parent]! <= key) break;
      this.keys[i] = this.keys[parent]!;
      this.items[i] = this.items[parent]!;
      i = parent;
    }
    this.keys[i] = key;
    this.items[i] = item;
  }

  peekKey(): number {
    return this.keys[0]!;
  }

  /** Removes the smallest; its item. */
  pop(): number {
    const top = this.items[0]!;
    const last = --this.size;
    const key = this.keys[last]!;
    const item = this.items[last]!;
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= last) break;
      if (child + 1 < last && this.keys[child + 1]! < this.keys[child]!) child++;
      if (this.keys[child]! >= key) break;
      this.keys[i] = this.keys[child]!;
      this.items[i] = this.items[child]!;
      i = child;
    }
    this.keys[i] = key;
    this.items[i] = item;
    return top;
  }

  clear() {
    this.size = 0;
  }
}

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
  const { time, meters, done, touched, heap, parent, prev } = workspace(g, states);
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
    const s = stateOf(arc);
    const t = share * secs[arc]!;
    if (t < time[s]!) {
      if (time[s] === Infinity) touched.push(s);
      time[s] = t;
      parent[s] = -1 - arc; // a start: the origin's arc
      prev[s] = -1;
      meters[s] = share * length(arc);
      heap.push(s, t + remaining(g.head[arc]!));
    }
  };
  if (leave === undefined || leave === from.forwardArc) start(from.forwardArc, 1 - from.t);
  if (leave === undefined || leave === from.backwardArc) start(from.backwardArc, from.t);
  // An origin at a vertex leaves it by any arc (as if entered by none: no turn is banned).
  const origin = leave === undefined ? vertexAt(g, from) : -1;
  if (origin >= 0 && time[origin]! > 0) {
    if (time[origin] === Infinity) touched.push(origin);
    time[origin] = 0;
    meters[origin] = 0;
    parent[origin] = -1 - (origin === g.head[from.backwardArc] ? from.backwardArc : from.forwardArc);
    prev[origin] = -1;
    heap.push(origin, remaining(origin));
  }
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
      const t = share ? share * secs[arc]! : 0; // free arrivals' arcs may be closed to the mode
      offer(k, { seconds: key + t, meters: meters[s]! + share * length(arc) }, s, arc);
    }
    for (let a = g.firstArc[v]!; a < g.firstArc[v + 1]!; a++) {
      if (!allowed(a)) continue;
      if (entered >= 0 && banned(g.turnBans, entered, a)) continue;
      within?.arc?.(a, 0, key);
      const w = stateOf(a);
      const t = key + (slower?.edges[g.edgeOf[a]!] ? slower.factor * secs[a]! : secs[a]!);
      if (t < time[w]!) {
        if (time[w] === Infinity) touched.push(w);
        time[w] = t;
        parent[w] = a;
        prev[w] = s;
        meters[w] = meters[s]! + length(a);
        heap.push(w, t + remaining(g.head[a]!));
      }
    }
  }
  if (paths) {
    best.forEach((leg, k) => {
      if (!leg) return;
      leg.arcs = arcsOf(via[k]!, parent, prev);
      leg.path = lineAlong(g, from, targets[k]!, leg.arcs);
    });
  }
  // Leave the workspace as it was found: only what this search touched is reset.
  for (const t of touched) {
    time[t] = Infinity;
    done[t] = 0;
  }
  touched.length = 0;
  heap.clear();
  return best;
}

interface Workspace {
  /** the arc into a state (-1 - arc: a start along the origin's edge), and the state before */
  parent: Int32Array;
  prev: Int32Array;
  time: Float64Array;
  meters: Float64Array;
  done: Uint8Array;
  touched: number[];
  heap: Heap;
}

const workspaces = new WeakMap<RoadGraph, Workspace>();

/**
 * The search's arrays for a graph, allocated once (per thread) and reset after each search by
 * what it touched: a matrix row or a short trip does not pay for the whole graph.
 */
function workspace(g: RoadGraph, states: number): Workspace {
  let w = workspaces.get(g);
  if (!w || w.time.length < states) {
    w = {
      parent: new Int32Array(states),
      prev: new Int32Array(states),
      time: new Float64Array(states).fill(Infinity),
      meters: new Float64Array(states),
      done: new Uint8Array(states),
      touched: [],
      heap: new Heap(),
    };
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

/** The points of an edge's shape from share `t0` to share `t1` of its length (t1 < t0: backwards). */
export function shapeBetween(g: RoadGraph, edge: number, t0: number, t1: number): [number, number][] {
  const first = g.edgeFirstPoint[edge]!;
  const last = g.edgeFirstPoint[edge + 1]! - 1;
  const length = g.edgeLength[edge]!;
  // Distance along the edge at each shape point.
  const at: number[] = [0];
  for (let p = first; p < last; p++) {
    at.push(
      at[at.length - 1]! + haversine(g.pointLng[p]!, g.pointLat[p]!, g.pointLng[p + 1]!, g.pointLat[p + 1]!),
    );
  }
  const pointAt = (t: number): [number, number] => {
    const d = t * length;
    let i = 0;
    while (i < at.length - 2 && at[i + 1]! < d) i++;
    const span = at[i + 1]! - at[i]!;
    const f = span > 0 ? Math.min(1, Math.max(0, (d - at[i]!) / span)) : 0;
    const p = first + i;
    return [
      g.pointLng[p]! + f * (g.pointLng[p + 1]! - g.pointLng[p]!),
      g.pointLat[p]! + f * (g.pointLat[p + 1]! - g.pointLat[p]!),
    ];
  };
  const out: [number, number][] = [pointAt(t0)];
  const [lo, hi] = t0 <= t1 ? [t0, t1] : [t1, t0];
  const inner: [number, number][] = [];
  for (let i = 0; i <= last - first; i++) {
    const t = length > 0 ? at[i]! / length : 0;
    if (t > lo && t < hi) inner.push([g.pointLng[first + i]!, g.pointLat[first + i]!]);
  }
  out.push(...(t0 <= t1 ? inner : inner.reverse()), pointAt(t1));
  return out;
}

/** The arcs of a route found by the Dijkstra: back from the arrival through the states' parents. */
function arcsOf(via: { state: number; arc: number }, parent: Int32Array, prev: Int32Array): number[] {
  // Along the origin's edge only.
  if (via.state < 0) return [];
  const arcs: number[] = [via.arc];
  for (let s = via.state; ; s = prev[s]!) {
    const p = parent[s]!;
    if (p < 0) {
      arcs.push(-1 - p);
      break;
    }
    arcs.push(p);
  }
  return arcs.reverse();
}

/**
 * A route's line from the origin's snapped point to the destination's: along `arcs`, the first
 * the origin's edge's (taken part-way), the last the destination's; none: along the origin's
 * edge only.
 */
export function lineAlong(g: RoadGraph, from: Snap, to: Snap, arcs: number[]): [number, number][] {
  if (!arcs.length) return shapeBetween(g, from.edge, from.t, to.t);
  const forward = (arc: number) => g.reversed[arc] === 0;
  const line: [number, number][] = [];
  const add = (points: [number, number][]) => {
    for (const pt of points) {
      const last = line[line.length - 1];
      if (!last || last[0] !== pt[0] || last[1] !== pt[1]) line.push(pt);
    }
  };
  add(shapeBetween(g, from.edge, from.t, forward(arcs[0]!) ? 1 : 0));
  for (const a of arcs.slice(1, -1))
    add(shapeBetween(g, g.edgeOf[a]!, forward(a) ? 0 : 1, forward(a) ? 1 : 0));
  const last = arcs[arcs.length - 1]!;
  add(shapeBetween(g, to.edge, forward(last) ? 0 : 1, to.t));
  return line;
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
