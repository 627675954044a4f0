import type Flatbush from "flatbush";
import type { Bundle } from "../bundles/file";
import { roadGraphOf } from "./graph-bundle";
import { type Position, haversine } from "../geo/distance";
import { imports } from "../bundles/folder";
import { processOnce } from "../process-once";
import { hierarchyMatrix, hierarchyRoute } from "./ch-query";
import { type Contour, isochrones } from "./isochrone";
import { type Step, alternativeRoutes, stepsOf } from "./directions";
import { type MatchedPoint, type Stretch, type TracePoint, matchTrace } from "./match";
import { instructionOf } from "./instructions";
import type { RoadGraph } from "./graph";
import { MODES, type Mode } from "./profiles";
import { type AvoidMask, type Leg, dijkstraMany, fastestRoute } from "./search";
import { type Snap, arcsOfEdges, edgeIndex, snap } from "./snap";

/**
 * Route distances over the imported road graphs (docs/routing.md): each import's graph with its
 * edge index and, per mode, its connected components, prepared once per file. A trip is routed
 * on the first import whose roads lie near both ends; none: the mode is unrouted, with the
 * reason, never an invented distance.
 */

/** How far from a usable road a point may be to be routed from it. */
export const SNAP_REACH_M = 1000;

interface Prepared {
  graph: RoadGraph;
  /** the roads' extent: a point inside it far from every road is an error of the request */
  extent: [number, number, number, number];
  index: Flatbush;
  arcs: Uint32Array;
  /** per mode: each edge's component (weakly connected over the mode's arcs) and the largest */
  components: Record<Mode, { of: Uint32Array; main: number }>;
}

/** Per import file, shared by every route bundle and the start-up preload (server/process-once.ts). */
const prepared = processOnce("road-graphs", () => new WeakMap<Bundle, Prepared | null>());

/** Union-find over the vertices joined by the mode's arcs; each edge's component and the biggest. */
function componentsOf(g: RoadGraph, arcs: Uint32Array, mode: Mode): { of: Uint32Array; main: number } {
  const V = g.lng.length;
  const parent = new Uint32Array(V);
  for (let v = 0; v < V; v++) parent[v] = v;
  const find = (v: number): number => {
    while (parent[v] !== v) {
      parent[v] = parent[parent[v]!]!;
      v = parent[v]!;
    }
    return v;
  };
  const secs = g.seconds[mode];
  for (let v = 0; v < V; v++) {
    for (let a = g.firstArc[v]!; a < g.firstArc[v + 1]!; a++) {
      if (secs[a] === Infinity) continue;
      const [x, y] = [find(v), find(g.head[a]!)];
      if (x !== y) parent[x] = y;
    }
  }
  const E = g.edgeLength.length;
  const of = new Uint32Array(E);
  const size = new Map<number, number>();
  for (let e = 0; e < E; e++) {
    const root = find(g.head[arcs[2 * e]!]!); // an end of the edge: its forward arc's head
    of[e] = root;
    size.set(root, (size.get(root) ?? 0) + g.edgeLength[e]!);
  }
  let main = 0;
  let best = -1;
  for (const [root, length] of size) {
    if (length > best) [main, best] = [root, length];
  }
  return { of, main };
}

function prepare(file: Bundle): Prepared | null {
  if (prepared.has(file)) return prepared.get(file)!;
  const graph = roadGraphOf(file);
  let p: Prepared | null = null;
  if (graph && graph.edgeLength.length) {
    const arcs = arcsOfEdges(graph);
    const components = Object.fromEntries(MODES.map((m) => [m, componentsOf(graph, arcs, m)]));
    const extent: Prepared["extent"] = [Infinity, Infinity, -Infinity, -Infinity];
    for (let v = 0; v < graph.lng.length; v++) {
      extent[0] = Math.min(extent[0], graph.lng[v]!);
      extent[1] = Math.min(extent[1], graph.lat[v]!);
      extent[2] = Math.max(extent[2], graph.lng[v]!);
      extent[3] = Math.max(extent[3], graph.lat[v]!);
    }
    p = { graph, extent, index: edgeIndex(graph), arcs, components: components as Prepared["components"] };
  }
  prepared.set(file, p);
  return p;
}

/** Loads every import's graph now (at start) rather than on the first route. */
export function preloadRoadGraphs(): void {
  for (const file of imports()) prepare(file);
}

/**
 * Snaps onto the mode's main network when a road of it is within reach (a parking lot's
 * disconnected service road does not strand a trip), else onto any road the mode may use.
 */
function snapPoint(p: Prepared, [lng, lat]: Position, mode: Mode, avoid: AvoidMask): Snap | undefined {
  const { graph: g, index, arcs } = p;
  const usable = (e: number) => !avoid || (g.flags[arcs[2 * e]!]! & avoid) === 0;
  const component = p.components[mode];
  return (
    snap(
      g,
      index,
      arcs,
      lng,
      lat,
      mode,
      SNAP_REACH_M,
      (e) => usable(e) && component.of[e] === component.main,
    ) ?? snap(g, index, arcs, lng, lat, mode, SNAP_REACH_M, usable)
  );
}

/**
 * Why a mode has no route: no imported roads around the points; none between them; or a point
 * inside an import's roads but more than SNAP_REACH_M from any the mode may use.
 */
export type Unrouted = "no-roads" | "no-route" | "origin-far" | "destination-far";

export type RouteResult = { mode: Mode; leg: Leg } | { mode: Mode; unrouted: Unrouted };

const inside = (p: Prepared, [lng, lat]: Position) =>
  lng >= p.extent[0] && lng <= p.extent[2] && lat >= p.extent[1] && lat <= p.extent[3];

/** The fastest route of each mode between two points, or why there is none. */
export function routeModes(
  origin: Position,
  destination: Position,
  modes: Mode[],
  avoid: AvoidMask = 0,
  paths = false,
): RouteResult[] {
  return modes.map((mode) => {
    const r = routeOn(origin, destination, mode, avoid, paths);
    if ("unrouted" in r) return { mode, unrouted: r.unrouted };
    const { arcs: _arcs, ...leg } = r.leg;
    return { mode, leg };
  });
}

/**
 * The fastest route of one mode, on the first import with roads near both points, with the
 * snapped points and the graph it was found on (directions read its arcs); or why there is none.
 */
function routeOn(
  origin: Position,
  destination: Position,
  mode: Mode,
  avoid: AvoidMask,
  paths: boolean,
): { leg: Leg; from: Snap; to: Snap; graph: RoadGraph } | { unrouted: Unrouted } {
  let covered = false;
  for (const file of imports()) {
    const p = prepare(file);
    if (!p) continue;
    const from = snapPoint(p, origin, mode, avoid);
    const to = from && snapPoint(p, destination, mode, avoid);
    if (!from || !to) continue;
    covered = true;
    // The contraction hierarchy where the import has one and nothing is avoided; else A*.
    // From road position to road position: the way from each point to its road is not travelled.
    const h = avoid ? undefined : p.graph.hierarchies?.[mode];
    const leg = h
      ? hierarchyRoute(p.graph, h, mode, from, to, { paths })
      : fastestRoute(p.graph, mode, from, to, { avoid, paths });
    if (leg) return { leg, from, to, graph: p.graph };
  }
  if (covered) return { unrouted: "no-route" };
  const why = [unreached(origin, mode, "origin"), unreached(destination, mode, "destination")];
  return {
    unrouted: why.find((w) => w.endsWith("-far")) ?? (why.includes("no-roads") ? "no-roads" : "no-route"),
  };
}

/** A leg of directions: the route between two consecutive locations and its steps with their text. */
export interface DirectionsLeg {
  leg: Leg;
  steps: (Step & { instruction: string })[];
}

/** The routes of directions, the best first, each leg by leg; or the first leg with no route and why. */
export type DirectionsResult = { routes: DirectionsLeg[][] } | { unrouted: Unrouted; leg: number };

/**
 * Turn-by-turn directions through `points` in order (server/routing/directions.ts): each leg as
 * the distance endpoint routes it, with its steps written in `language`; or the first leg with
 * no route and why. With `alternatives` and two points, up to two other routes too
 * (alternativeRoutes).
 */
export function directionsThrough(
  points: Position[],
  mode: Mode,
  avoid: AvoidMask,
  language: string,
  alternatives = false,
): DirectionsResult {
  const legs: DirectionsLeg[] = [];
  const count = points.length - 1;
  const written = (steps: Step[], i: number) =>
    steps.map((s) => ({ ...s, instruction: instructionOf(s, language, i, count) }));
  let best: Extract<ReturnType<typeof routeOn>, { leg: Leg }> | undefined;
  for (let i = 0; i < count; i++) {
    const r = routeOn(points[i]!, points[i + 1]!, mode, avoid, true);
    if ("unrouted" in r) return { unrouted: r.unrouted, leg: i };
    best ??= r;
    const { arcs = [], ...leg } = r.leg;
    legs.push({ leg, steps: written(stepsOf(r.graph, mode, r.from, r.to, arcs, points[i + 1]), i) });
  }
  const routes = [legs];
  if (alternatives && count === 1 && best) {
    const { graph: g, from, to } = best;
    for (const alt of alternativeRoutes(g, mode, from, to, best.leg, avoid)) {
      routes.push([{ leg: alt.leg, steps: written(stepsOf(g, mode, from, to, alt.arcs, points[1]), 0) }]);
    }
  }
  return { routes };
}

export type Cell = { leg: Leg } | { unrouted: Unrouted };

/**
 * The fastest routes from each origin to each destination for one mode: one search per origin
 * on the first import with roads near it, to every destination snapped on the same roads.
 */
export function routeMatrix(
  origins: Position[],
  destinations: Position[],
  mode: Mode,
  avoid: AvoidMask = 0,
): Cell[][] {
  const rows: (Cell[] | undefined)[] = origins.map(() => undefined);
  for (const file of imports()) {
    const p = prepare(file);
    if (!p) continue;
    const waiting = origins.flatMap((o, i) => (rows[i] ? [] : [{ i, from: snapPoint(p, o, mode, avoid) }]));
    if (!waiting.some((w) => w.from)) continue;
    // The destinations are snapped once for every row.
    const targets = destinations.map((d) => snapPoint(p, d, mode, avoid));
    const reachable = targets.filter((t): t is Snap => !!t);
    const starts = waiting.flatMap((w) => (w.from ? [w.from] : []));
    // Many-to-many on the contraction hierarchy; else one Dijkstra per origin to all targets.
    const h = avoid ? undefined : p.graph.hierarchies?.[mode];
    const many = h
      ? hierarchyMatrix(p.graph, h, mode, starts, reachable)
      : starts.map((from) => dijkstraMany(p.graph, mode, from, reachable, { avoid }));
    for (const { i, from } of waiting) {
      if (!from) continue;
      const legs = many[starts.indexOf(from)]!;
      let next = 0;
      rows[i] = targets.map((to): Cell => {
        if (!to) return { unrouted: "no-roads" };
        const leg = legs[next++];
        return leg ? { leg } : { unrouted: "no-route" };
      });
    }
  }
  // Points no search could start from or reach: why (far from the mode's roads, or none imported).
  return rows.map(
    (row, i) =>
      row?.map((cell, j): Cell =>
        "unrouted" in cell && cell.unrouted === "no-roads"
          ? { unrouted: unreached(destinations[j]!, mode, "destination") }
          : cell,
      ) ?? destinations.map((): Cell => ({ unrouted: unreached(origins[i]!, mode, "origin") })),
  );
}

export type MatchResult = { matched: MatchedPoint[]; stretches: Stretch[] } | { unrouted: "no-roads" };

/** A trace matched onto the roads (server/routing/match.ts), on the first import whose roads it lies among. */
export function matchAlong(trace: TracePoint[], mode: Mode): MatchResult {
  for (const file of imports()) {
    const p = prepare(file);
    if (!p || !trace.some((pt) => inside(p, [pt.lng, pt.lat]))) continue;
    return matchTrace(p.graph, p.index, p.arcs, mode, trace);
  }
  return { unrouted: "no-roads" };
}

export type IsochroneResult = { contours: Contour[]; roads: string } | { unrouted: Unrouted };

/**
 * Which roads the imports hold now: each import with a road graph by when it was made. An
 * isochrone geofence records it, and is drawn again when it changes (a re-import). Reads only
 * the imports' meta: no graph is loaded.
 */
export function roadsSignature(files = imports()): string {
  return files
    .flatMap((f) => {
      const m = f.meta();
      return m.roadGraph ? [`${m.importedAt ?? ""}:${m.roadGraph}`] : [];
    })
    .join("|");
}

/**
 * The isochrones around a point for one mode (server/routing/isochrone.ts), on the first import
 * with a road the mode may use near it; or why there are none (`origin-far`: the request's error).
 */
export function isochroneAround(
  origin: Position,
  mode: Mode,
  minutes: number[],
  avoid: AvoidMask = 0,
): IsochroneResult {
  for (const file of imports()) {
    const p = prepare(file);
    if (!p) continue;
    const from = snapPoint(p, origin, mode, avoid);
    if (from) return { contours: isochrones(p.graph, mode, from, minutes, avoid), roads: roadsSignature() };
  }
  return { unrouted: unreached(origin, mode, "origin") };
}

/**
 * Why a point that no search could start from or reach has no route: it lies among an import's
 * roads but none the mode may use is within reach (`origin-far`, `destination-far`: the request's
 * error), such roads are there but all avoided (`no-route`), or no import covers it (`no-roads`).
 */
function unreached(point: Position, mode: Mode, side: "origin" | "destination"): Unrouted {
  for (const file of imports()) {
    const p = prepare(file);
    if (!p || !inside(p, point)) continue;
    return snapPoint(p, point, mode, 0) ? "no-route" : `${side}-far`;
  }
  return "no-roads";
}

/**
 * Walking from one point to several (transit's access, egress and transfers, server/transit):
 * seconds and meters over the first import's foot network near `from`, straight stretches to
 * and from the paths included; undefined for a point that network does not reach. Null when no
 * imported roads are near `from` (the caller estimates then).
 */
export function walkingTimes(from: Position, to: Position[]): (Leg | undefined)[] | null {
  for (const file of imports()) {
    const p = prepare(file);
    if (!p) continue;
    const start = snapPoint(p, from, "foot", 0);
    if (!start) continue;
    const targets = to.map((t) => snapPoint(p, t, "foot", 0));
    const reachable = targets.filter((t): t is Snap => !!t);
    const h = p.graph.hierarchies?.foot;
    const legs = h
      ? hierarchyMatrix(p.graph, h, "foot", [start], reachable)[0]!
      : dijkstraMany(p.graph, "foot", start, reachable);
    let next = 0;
    return targets.map((t) => {
      if (!t) return undefined;
      const leg = legs[next++];
      if (!leg) return undefined;
      const access = start.distance + t.distance;
      return { meters: leg.meters + access, seconds: leg.seconds + access / WALK_ACCESS_MPS };
    });
  }
  return null;
}

/** The pace of the walk between a point and the path it was snapped to, in transit's walks (m/s). */
const WALK_ACCESS_MPS = 5 / 3.6;

/** The straight-line distance, always answered. */
export const geodesicMeters = (a: Position, b: Position) => haversine(a[0], a[1], b[0], b[1]);
