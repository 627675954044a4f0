import { type RoadGraph, tailsOf } from "./graph";
import { type Hierarchy, copiesOf } from "./hierarchy";
import type { Mode } from "./profiles";
import { type SearchSpace, release, searchSpace } from "./search-space";
import { type Leg, banned } from "./search";
import { type Snap, vertexAt } from "./snap";
import { lineAlong } from "./shapes";

/**
 * Routes and matrices over a contraction hierarchy (./contract.ts builds it): a query searches
 * upward only, from both ends, and meets in the middle (docs/routing.md#contraction-hierarchies).
 */

/** A node a search starts from (forward: the origin's; backward: the destination's), its time and meters. */
interface Seed {
  node: number;
  seconds: number;
  meters: number;
  /** the graph's arc the seed lies on */
  arc: number;
}

/** The nodes an arc may be taken from: its tail, or the tail's copies whose turn onto it is allowed. */
function tailNodes(
  g: RoadGraph,
  h: Hierarchy,
  tail: number,
  arc: number,
  copies: Map<number, number[]>,
): number[] {
  const list = copies.get(tail);
  if (!list) return [tail];
  const V = g.lng.length;
  return list.filter((n) => !banned(g.turnBans, h.copyArc[n - V]!, arc));
}

interface Prepared {
  copies: Map<number, number[]>;
  tail: Uint32Array;
  search: [Side, Side];
}

/** One direction of the bidirectional search: its nodes' times and lengths, and (parent) the
 * hierarchy's arc a node was reached by (-1 - seed index: a seed). */
type Side = SearchSpace;

const prepared = new WeakMap<Hierarchy, Prepared>();

function prepare(g: RoadGraph, h: Hierarchy): Prepared {
  let p = prepared.get(h);
  if (!p) {
    const N = h.rank.length;
    const copies = copiesOf(g, h.copyArc);
    const side = (): Side => searchSpace(N);
    p = { copies, tail: tailsOf(g), search: [side(), side()] };
    prepared.set(h, p);
  }
  return p;
}

/** The seeds of the forward search (leaving the origin along its edge) and of the backward one. */
function seeds(
  g: RoadGraph,
  h: Hierarchy,
  p: Prepared,
  from: Snap | undefined,
  to: Snap | undefined,
  secs: Float32Array,
) {
  const length = (arc: number) => g.edgeLength[g.edgeOf[arc]!]!;
  const forward: Seed[] = [];
  const backward: Seed[] = [];
  if (from) {
    for (const [arc, share] of [
      [from.forwardArc, 1 - from.t],
      [from.backwardArc, from.t],
    ] as const) {
      if (secs[arc] === Infinity) continue;
      forward.push({
        node: h.arcHeadNode[arc]!,
        seconds: share * secs[arc]!,
        meters: share * length(arc),
        arc,
      });
    }
    // At a vertex: it leaves by any arc (search.ts, vertexAt).
    const v = vertexAt(g, from);
    const arc = v === g.head[from.backwardArc] ? from.backwardArc : from.forwardArc;
    if (v >= 0) forward.push({ node: v, seconds: 0, meters: 0, arc });
  }
  if (to) {
    for (const [arc, share] of [
      [to.forwardArc, to.t],
      [to.backwardArc, 1 - to.t],
    ] as const) {
      if (secs[arc] === Infinity) continue;
      for (const node of tailNodes(g, h, p.tail[arc]!, arc, p.copies)) {
        backward.push({ node, seconds: share * secs[arc]!, meters: share * length(arc), arc });
      }
    }
    // At a vertex: reached on reaching the vertex, by any arc (any of its copies).
    const v = vertexAt(g, to);
    if (v >= 0) {
      const arc = v === g.head[to.backwardArc] ? to.forwardArc : to.backwardArc;
      for (const node of [v, ...(p.copies.get(v) ?? [])]) backward.push({ node, seconds: 0, meters: 0, arc });
    }
  }
  return { forward, backward };
}

/** The route along the origin's edge alone, when the destination lies ahead on it. */
function direct(g: RoadGraph, secs: Float32Array, from: Snap, to: Snap): (Leg & { arc: number }) | undefined {
  if (from.edge !== to.edge) return undefined;
  let best: (Leg & { arc: number }) | undefined;
  for (const [arc, share] of [
    [from.forwardArc, to.t - from.t],
    [from.backwardArc, from.t - to.t],
  ] as const) {
    if (secs[arc] === Infinity || share < 0) continue;
    const leg = { seconds: share * secs[arc]!, meters: share * g.edgeLength[from.edge]!, arc };
    if (!best || leg.seconds < best.seconds) best = leg;
  }
  return best;
}

function seed(side: Side, list: Seed[]) {
  list.forEach((s, i) => {
    if (s.seconds < side.time[s.node]!) {
      if (side.time[s.node] === Infinity) side.touched.push(s.node);
      side.time[s.node] = s.seconds;
      side.meters[s.node] = s.meters;
      side.parent[s.node] = -1 - i;
      side.heap.push(s.node, s.seconds);
    }
  });
}

/** Settles the next node of one side's upward search; its node. */
function step(h: Hierarchy, side: Side, backward: boolean): number {
  const n = side.heap.pop();
  if (side.done[n]) return -1;
  side.done[n] = 1;
  const key = side.time[n]!;
  const first = backward ? h.downFirst : h.upFirst;
  const list = backward ? h.down : h.up;
  const ends = backward ? h.arcTail : h.arcHead;
  for (let k = first[n]!; k < first[n + 1]!; k++) {
    const id = list[k]!;
    const x = ends[id]!;
    const t = key + h.arcSeconds[id]!;
    if (t < side.time[x]!) {
      if (side.time[x] === Infinity) side.touched.push(x);
      side.time[x] = t;
      side.meters[x] = side.meters[n]! + h.arcMeters[id]!;
      side.parent[x] = id;
      side.heap.push(x, t);
    }
  }
  return n;
}

/** The graph's arcs a hierarchy arc stands for, in order. */
function unpack(h: Hierarchy, id: number, out: number[]) {
  const stack = [id];
  while (stack.length) {
    const a = stack.pop()!;
    if (h.arcB[a]! < 0) out.push(h.arcA[a]!);
    else stack.push(h.arcB[a]!, h.arcA[a]!);
  }
}

/**
 * The fastest route between two snapped points on the hierarchy (no `avoid`): a bidirectional
 * upward search that stops once neither side can better the best meeting found.
 */
export function hierarchyRoute(
  g: RoadGraph,
  h: Hierarchy,
  mode: Mode,
  from: Snap,
  to: Snap,
  { paths = false }: { paths?: boolean } = {},
): Leg | undefined {
  const secs = g.seconds[mode];
  const p = prepare(g, h);
  const [fw, bw] = p.search;
  const s = seeds(g, h, p, from, to, secs);
  seed(fw, s.forward);
  seed(bw, s.backward);
  const along = direct(g, secs, from, to);
  let best = along ? along.seconds : Infinity;
  let meet = -1;
  while (fw.heap.size || bw.heap.size) {
    const f = fw.heap.size ? fw.heap.peekKey() : Infinity;
    const b = bw.heap.size ? bw.heap.peekKey() : Infinity;
    if (Math.min(f, b) >= best) break;
    const backward = b < f;
    const side = backward ? bw : fw;
    const other = backward ? fw : bw;
    const n = step(h, side, backward);
    if (n < 0 || other.time[n] === Infinity) continue;
    const total = side.time[n]! + other.time[n]!;
    if (total < best) {
      best = total;
      meet = n;
    }
  }
  let leg: Leg | undefined;
  if (meet >= 0) {
    leg = { seconds: best, meters: fw.meters[meet]! + bw.meters[meet]! };
    if (paths) {
      // Forward half: back from the meeting node to its seed; backward half: on to the destination's.
      const up: number[] = [];
      let n = meet;
      while (fw.parent[n]! >= 0) {
        up.push(fw.parent[n]!);
        n = h.arcTail[fw.parent[n]!]!;
      }
      const first = s.forward[-1 - fw.parent[n]!]!.arc;
      const arcs = [first];
      for (const id of up.reverse()) unpack(h, id, arcs);
      n = meet;
      while (bw.parent[n]! >= 0) {
        unpack(h, bw.parent[n]!, arcs);
        n = h.arcHead[bw.parent[n]!]!;
      }
      arcs.push(s.backward[-1 - bw.parent[n]!]!.arc);
      leg.path = lineAlong(g, from, to, arcs);
      leg.arcs = arcs;
    }
  } else if (along) {
    leg = {
      seconds: along.seconds,
      meters: along.meters,
      ...(paths && { path: lineAlong(g, from, to, []), arcs: [] }),
    };
  }
  release(fw);
  release(bw);
  return leg;
}

/**
 * The fastest routes from each origin to each destination (the matrix) on the hierarchy: one
 * upward search back from each destination leaves its times in buckets at the nodes it settles;
 * one upward search from each origin then reads the buckets of the nodes it settles.
 */
export function hierarchyMatrix(
  g: RoadGraph,
  h: Hierarchy,
  mode: Mode,
  origins: Snap[],
  destinations: Snap[],
): (Leg | undefined)[][] {
  const secs = g.seconds[mode];
  const p = prepare(g, h);
  const [fw, bw] = p.search;
  const buckets = new Map<number, { j: number; seconds: number; meters: number }[]>();
  destinations.forEach((to, j) => {
    seed(bw, seeds(g, h, p, undefined, to, secs).backward);
    while (bw.heap.size) {
      const n = step(h, bw, true);
      if (n < 0) continue;
      let list = buckets.get(n);
      if (!list) buckets.set(n, (list = []));
      list.push({ j, seconds: bw.time[n]!, meters: bw.meters[n]! });
    }
    release(bw);
  });
  return origins.map((from) => {
    const row: (Leg | undefined)[] = destinations.map((to) => {
      const along = direct(g, secs, from, to);
      return along && { seconds: along.seconds, meters: along.meters };
    });
    seed(fw, seeds(g, h, p, from, undefined, secs).forward);
    while (fw.heap.size) {
      const n = step(h, fw, false);
      if (n < 0) continue;
      for (const { j, seconds, meters } of buckets.get(n) ?? []) {
        const total = fw.time[n]! + seconds;
        if (!row[j] || total < row[j].seconds) row[j] = { seconds: total, meters: fw.meters[n]! + meters };
      }
    }
    release(fw);
    return row;
  });
}
