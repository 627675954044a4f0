import { haversine } from "../geo/distance";
import { MODES, type Mode, type RoadLabel } from "./profiles";
import { RoadRuns, type RoutableWay, grow, growAll } from "./road-runs";
import { FLAG_FERRY, FLAG_TOLL, FLAG_HIGHWAY, type RoadGraph, NO_LABEL, type TurnRestriction } from "./graph";

/** Building the road graph (./graph.ts) at import: vertices, edges and arcs of the routable ways, their labels, shapes and turn bans. */

/** A node a mode may not pass (a barrier): its id and the modes it stops. */
export type Barriers = Map<number, Set<Mode>>;

export const seconds = (meters: number, kmh: number) => (kmh > 0 ? meters / (kmh / 3.6) : Infinity);

const MODE_BIT = Object.fromEntries(MODES.map((m, i) => [m, 1 << i])) as Record<Mode, number>;

/** The modes a barrier at a node stops, as bits of MODE_BIT. */
function blockedBits(barriers: Barriers, id: number): number {
  const modes = barriers.get(id);
  let bits = 0;
  if (modes) for (const m of modes) bits |= MODE_BIT[m];
  return bits;
}

/** The index of `id` in a sorted array, or -1. */
function indexIn(sorted: Float64Array, id: number): number {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = sorted[mid]!;
    if (v === id) return mid;
    if (v < id) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/**
 * The stretches of ways between two vertices, as the graph builder cuts them, in typed arrays:
 * from and to vertex, meters, the run it is part of (its way and profile), its shape (the run's
 * nodes first..last), and the modes a barrier at its start (bits 0–2) or end (bits 3–5) stops.
 */
class Edges {
  from = new Uint32Array(1 << 12);
  to = new Uint32Array(1 << 12);
  length = new Float64Array(1 << 12);
  run = new Uint32Array(1 << 12);
  first = new Uint32Array(1 << 12);
  last = new Uint32Array(1 << 12);
  blocked = new Uint8Array(1 << 12);
  n = 0;

  add(from: number, to: number, length: number, run: number, first: number, last: number, blocked: number) {
    if (this.n === this.from.length)
      growAll<Edges>(this, ["from", "to", "length", "run", "first", "last", "blocked"]);
    const i = this.n++;
    this.from[i] = from;
    this.to[i] = to;
    this.length[i] = length;
    this.run[i] = run;
    this.first[i] = first;
    this.last[i] = last;
    this.blocked[i] = blocked;
  }
}

/**
 * Builds the graph from routable ways (a RoadRuns, or ways as objects). A barrier node splits its
 * way there and is a vertex the modes it stops may reach but not leave: they cannot pass it.
 */
export function buildGraph(
  ways: RoadRuns | RoutableWay[],
  barriers: Barriers = new Map(),
  restrictions: TurnRestriction[] = [],
): RoadGraph {
  const runs = ways instanceof RoadRuns ? ways : RoadRuns.of(ways);
  const vertices = verticesOf(runs, barriers);
  const edges = edgesOf(runs, barriers, vertices);
  const V = vertices.lng.length;
  const arcs = arcsOf(edges, runs, V);
  const { turnBans, restrictedVia } = turnBansOf(restrictions, vertices.of, edges, runs, arcs);
  return {
    turnBans,
    restrictedVia,
    lng: vertices.lng,
    lat: vertices.lat,
    firstArc: arcs.firstArc,
    head: arcs.head,
    edgeOf: arcs.edgeOf,
    reversed: arcs.reversed,
    seconds: arcs.secs,
    flags: arcs.flags,
    ...shapesOf(edges, runs),
    ...labelsOf(edges, runs),
  };
}

/** The distinct labels of the edges' ways, and each edge's. */
function labelsOf(edges: Edges, runs: RoadRuns) {
  const index = new Map<string, number>();
  const labels: RoadLabel[] = [];
  const ofProfile = new Int32Array(runs.profiles.length).fill(-1);
  const edgeLabel = new Uint32Array(edges.n);
  for (let i = 0; i < edges.n; i++) {
    const p = runs.profile(edges.run[i]!);
    if (ofProfile[p]! < 0) {
      const label = runs.profiles[p]!.road ?? NO_LABEL;
      const key = JSON.stringify(label);
      let k = index.get(key);
      if (k === undefined) {
        k = labels.push(label) - 1;
        index.set(key, k);
      }
      ofProfile[p] = k;
    }
    edgeLabel[i] = ofProfile[p]!;
  }
  return { edgeLabel, labels };
}

/**
 * The vertices: the ends of ways, nodes used more than once, and barriers. Found by sorting the
 * runs' node ids (no map of every node: a country's roads have tens of millions, beyond what a
 * JavaScript Map holds); numbered in the order the ways reach them, as edgesOf meets them.
 */
function verticesOf(runs: RoadRuns, barriers: Barriers) {
  const sorted = runs.nodeId.slice(0, runs.nodes).sort();
  let candidates = new Float64Array(Math.max(16, 2 * runs.runs + barriers.size));
  let n = 0;
  const push = (id: number) => {
    if (n === candidates.length) candidates = grow(candidates);
    candidates[n++] = id;
  };
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i] === sorted[i - 1] && (i === 1 || sorted[i - 1] !== sorted[i - 2])) push(sorted[i]!);
  }
  for (let r = 0; r < runs.runs; r++) {
    push(runs.nodeId[runs.start(r)]!);
    push(runs.nodeId[runs.end(r) - 1]!);
  }
  for (const id of barriers.keys()) push(id);
  const all = candidates.subarray(0, n).sort();
  let unique = 0;
  for (let i = 0; i < n; i++) if (i === 0 || all[i] !== all[i - 1]) all[unique++] = all[i]!;
  const ids = all.slice(0, unique);
  /** per id of `ids`: its vertex number once met (-1 before) */
  const number = new Int32Array(unique).fill(-1);
  let lng = new Float64Array(1 << 12);
  let lat = new Float64Array(1 << 12);
  let count = 0;
  return {
    /** whether a node is a vertex (cuts its way) */
    isVertex: (id: number) => indexIn(ids, id) >= 0,
    /** the vertex of a node, numbered when first met */
    vertex(id: number, x: number, y: number): number {
      const k = indexIn(ids, id);
      let v = number[k]!;
      if (v < 0) {
        if (count === lng.length) {
          lng = grow(lng);
          lat = grow(lat);
        }
        v = number[k] = count++;
        lng[v] = x;
        lat[v] = y;
      }
      return v;
    },
    /** the vertex of a node already met, or undefined */
    of(id: number): number | undefined {
      const k = indexIn(ids, id);
      return k < 0 || number[k]! < 0 ? undefined : number[k];
    },
    get lng() {
      return lng.slice(0, count);
    },
    get lat() {
      return lat.slice(0, count);
    },
  };
}

/** The runs cut at their vertices into edges. */
function edgesOf(runs: RoadRuns, barriers: Barriers, vertices: ReturnType<typeof verticesOf>): Edges {
  const edges = new Edges();
  const { nodeId: id, nodeLng: x, nodeLat: y } = runs;
  for (let r = 0; r < runs.runs; r++) {
    const end = runs.end(r);
    let start = runs.start(r);
    let length = 0;
    for (let i = start + 1; i < end; i++) {
      length += haversine(x[i - 1]!, y[i - 1]!, x[i]!, y[i]!);
      if (i < end - 1 && !vertices.isVertex(id[i]!)) continue;
      const from = vertices.vertex(id[start]!, x[start]!, y[start]!);
      const to = vertices.vertex(id[i]!, x[i]!, y[i]!);
      const blocked = blockedBits(barriers, id[start]!) | (blockedBits(barriers, id[i]!) << 3);
      edges.add(from, to, length, r, start, i, blocked);
      start = i;
      length = 0;
    }
  }
  return edges;
}

/** Arcs: two per edge, sorted into rows by their tail vertex, with each mode's seconds. */
function arcsOf(edges: Edges, runs: RoadRuns, V: number) {
  const count = new Uint32Array(V + 1);
  for (let i = 0; i < edges.n; i++) {
    count[edges.from[i]!]!++;
    count[edges.to[i]!]!++;
  }
  const firstArc = new Uint32Array(V + 1);
  for (let v = 0; v < V; v++) firstArc[v + 1] = firstArc[v]! + count[v]!;
  const A = firstArc[V]!;
  const next = firstArc.slice(0, V);
  const head = new Uint32Array(A);
  const edgeOf = new Uint32Array(A);
  const reversed = new Uint8Array(A);
  const flags = new Uint8Array(A);
  const secs = Object.fromEntries(MODES.map((m) => [m, new Float32Array(A)])) as Record<Mode, Float32Array>;
  const edgeArcs = new Uint32Array(2 * edges.n);
  for (let i = 0; i < edges.n; i++) {
    const profile = runs.profiles[runs.profile(edges.run[i]!)]!;
    const flag =
      (profile.ferry ? FLAG_FERRY : 0) |
      (profile.toll ? FLAG_TOLL : 0) |
      (profile.highway ? FLAG_HIGHWAY : 0);
    for (const back of [false, true]) {
      const tail = back ? edges.to[i]! : edges.from[i]!;
      const a = next[tail]!++;
      edgeArcs[2 * i + (back ? 1 : 0)] = a;
      head[a] = back ? edges.from[i]! : edges.to[i]!;
      edgeOf[a] = i;
      reversed[a] = back ? 1 : 0;
      flags[a] = flag;
      // A barrier at the arc's tail stops the modes it blocks from leaving along it.
      const blocked = back ? edges.blocked[i]! >> 3 : edges.blocked[i]! & 7;
      for (const m of MODES) {
        const d = profile[m];
        secs[m][a] =
          blocked & MODE_BIT[m] ? Infinity : seconds(edges.length[i]!, back ? d.backward : d.forward);
      }
    }
  }
  return { firstArc, head, edgeOf, reversed, flags, secs, edgeArcs };
}

/** The edges' lengths and shapes, packed: each edge's points from edgeFirstPoint on. */
function shapesOf(edges: Edges, runs: RoadRuns) {
  const edgeLength = edges.length.slice(0, edges.n);
  const edgeFirstPoint = new Uint32Array(edges.n + 1);
  let points = 0;
  for (let i = 0; i < edges.n; i++) {
    edgeFirstPoint[i] = points;
    points += edges.last[i]! - edges.first[i]! + 1;
  }
  edgeFirstPoint[edges.n] = points;
  const pointLng = new Float64Array(points);
  const pointLat = new Float64Array(points);
  for (let i = 0; i < edges.n; i++) {
    pointLng.set(runs.nodeLng.subarray(edges.first[i]!, edges.last[i]! + 1), edgeFirstPoint[i]!);
    pointLat.set(runs.nodeLat.subarray(edges.first[i]!, edges.last[i]! + 1), edgeFirstPoint[i]!);
  }
  return { edgeLength, edgeFirstPoint, pointLng, pointLat };
}

/**
 * Turn restrictions as banned (arc in, arc out) pairs, sorted: the arcs of the from-way into the
 * via vertex, and of the to-way out of it (an "only" restriction bans every other way out).
 */
function turnBansOf(
  restrictions: TurnRestriction[],
  vertexOf: (id: number) => number | undefined,
  edges: Edges,
  runs: RoadRuns,
  arcs: ReturnType<typeof arcsOf>,
) {
  const { firstArc, edgeOf, reversed, edgeArcs } = arcs;
  const bans: [number, number][] = [];
  const restrictedVia = new Uint8Array(firstArc.length - 1);
  for (const r of restrictions) {
    const v = vertexOf(r.via);
    if (v === undefined) continue;
    const into: number[] = [];
    const outOf: number[] = [];
    const others: number[] = [];
    for (let a = firstArc[v]!; a < firstArc[v + 1]!; a++) {
      const way = runs.way(edges.run[edgeOf[a]!]!);
      if (way === r.to) outOf.push(a);
      else others.push(a);
      // The arc coming back along the same edge ends at v: an arc into v.
      if (way === r.from) into.push(edgeArcs[2 * edgeOf[a]! + (reversed[a] ? 0 : 1)]!);
    }
    if (!into.length || !outOf.length) continue;
    for (const i of into) {
      for (const o of r.only ? others : outOf) bans.push([i, o]);
    }
    restrictedVia[v] = 1;
  }
  bans.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  return { turnBans: Uint32Array.from(bans.flat()), restrictedVia };
}

/** The length in meters of an arc (its edge's). */
export const arcLength = (g: RoadGraph, arc: number) => g.edgeLength[g.edgeOf[arc]!]!;
