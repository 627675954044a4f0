import { type RoadGraph, tailsOf } from "./graph";
import type { Mode } from "./profiles";
import { Heap, type Leg, type Snap, banned, lineAlong, vertexAt } from "./search";

/**
 * Contraction hierarchies (docs/routing.md#contraction-hierarchies): what answers a route or a
 * matrix without `avoid`. At import, each mode's graph is contracted vertex by vertex (least
 * important first), adding shortcut arcs wherever a vertex lay on the only fastest way between
 * two neighbours; a query then searches upward only, from both ends, and meets in the middle:
 * a few hundred vertices settled instead of most of the graph.
 *
 * Turn restrictions stay exact by expanding the car's graph where they are: a vertex that is the
 * via of a restriction becomes one node per arc it may be entered by (a "copy"), whose arcs out
 * are only the turns allowed after that arc. Every other vertex is one node, as in the graph.
 */

export interface Hierarchy {
  /** nodes V.. are copies of restricted vertices: copyArc[n - V] is the arc that enters the copy */
  copyArc: Uint32Array;
  /** per arc of the graph: the node its head is (its copy for a restricted head) */
  arcHeadNode: Uint32Array;
  /** the order of contraction: searches go only towards higher ranks */
  rank: Uint32Array;
  /** every arc of the hierarchy, the graph's (arcB = -1, arcA the graph's arc) and shortcuts (two halves) */
  arcTail: Uint32Array;
  arcHead: Uint32Array;
  arcSeconds: Float64Array;
  arcMeters: Float64Array;
  arcA: Int32Array;
  arcB: Int32Array;
  /** per node: the arcs leaving it upwards, and the arcs entering it from above */
  upFirst: Uint32Array;
  up: Uint32Array;
  downFirst: Uint32Array;
  down: Uint32Array;
}

/** The hierarchy's arrays by name and type (stored beside the graph's in the bundle). */
export const HIERARCHY_PARTS = {
  copyArc: Uint32Array,
  arcHeadNode: Uint32Array,
  rank: Uint32Array,
  arcTail: Uint32Array,
  arcHead: Uint32Array,
  arcSeconds: Float64Array,
  arcMeters: Float64Array,
  arcA: Int32Array,
  arcB: Int32Array,
  upFirst: Uint32Array,
  up: Uint32Array,
  downFirst: Uint32Array,
  down: Uint32Array,
} as const satisfies { [K in keyof Hierarchy]: { new (b: ArrayBuffer): Hierarchy[K] } };

/** The copies (nodes V..) of each restricted vertex, from the arcs that enter them. */
function copiesOf(g: RoadGraph, copyArc: ArrayLike<number>): Map<number, number[]> {
  const V = g.lng.length;
  const copies = new Map<number, number[]>();
  for (let i = 0; i < copyArc.length; i++) {
    const v = g.head[copyArc[i]!]!;
    let list = copies.get(v);
    if (!list) copies.set(v, (list = []));
    list.push(V + i);
  }
  return copies;
}

/** How many vertices a witness search settles before it gives up (and the shortcut is added). */
const WITNESS_SETTLE_LIMIT = 400;

/**
 * Contracts the mode's graph. `onProgress` gets the share of nodes contracted (0..1) now and then.
 */
export function contract(g: RoadGraph, mode: Mode, onProgress: (f: number) => void = () => {}): Hierarchy {
  const V = g.lng.length;
  const A = g.head.length;
  const secs = g.seconds[mode];
  const tail = tailsOf(g);
  const turns = mode === "car" && g.turnBans.length > 0;
  const restricted = (v: number) => turns && g.restrictedVia[v] === 1;

  // Nodes: the vertices, then one copy per usable arc into a restricted vertex.
  const copyArc: number[] = [];
  const arcHeadNode = new Uint32Array(A);
  for (let a = 0; a < A; a++) {
    arcHeadNode[a] = restricted(g.head[a]!) && secs[a] !== Infinity ? V + copyArc.push(a) - 1 : g.head[a]!;
  }
  const N = V + copyArc.length;
  const copies = copiesOf(g, copyArc);

  // The arcs: the graph's usable arcs, from every node their tail is (each copy its allowed turns).
  const aTail: number[] = [];
  const aHead: number[] = [];
  const aSecs: number[] = [];
  const aMeters: number[] = [];
  const aA: number[] = [];
  const aB: number[] = [];
  const out: number[][] = Array.from({ length: N }, () => []);
  const into: number[][] = Array.from({ length: N }, () => []);
  const addArc = (t: number, h: number, s: number, m: number, a: number, b: number) => {
    const id = aTail.push(t) - 1;
    aHead.push(h);
    aSecs.push(s);
    aMeters.push(m);
    aA.push(a);
    aB.push(b);
    out[t]!.push(id);
    into[h]!.push(id);
    return id;
  };
  for (let a = 0; a < A; a++) {
    if (secs[a] === Infinity) continue;
    const u = tail[a]!;
    const meters = g.edgeLength[g.edgeOf[a]!]!;
    if (!restricted(u)) {
      addArc(u, arcHeadNode[a]!, secs[a]!, meters, a, -1);
      continue;
    }
    // The vertex itself, entered by no arc, is where an origin at it starts: every turn is open.
    addArc(u, arcHeadNode[a]!, secs[a]!, meters, a, -1);
    for (const copy of copies.get(u) ?? []) {
      if (!banned(g.turnBans, copyArc[copy - V]!, a)) addArc(copy, arcHeadNode[a]!, secs[a]!, meters, a, -1);
    }
  }

  // Witness searches: bounded Dijkstras among the nodes not yet contracted.
  const contracted = new Uint8Array(N);
  const dist = new Float64Array(N).fill(Infinity);
  const touched: number[] = [];
  const heap = new Heap();
  /** Whether a path from `s` to `t` avoiding `skip` takes at most `limit` seconds. */
  const witnessTo = (s: number, skip: number, targets: Map<number, number>, limit: number) => {
    dist[s] = 0;
    touched.push(s);
    heap.push(s, 0);
    let settled = 0;
    let left = targets.size;
    const found = new Set<number>();
    while (heap.size && settled < WITNESS_SETTLE_LIMIT && left > 0) {
      const d = heap.peekKey();
      const n = heap.pop();
      if (d > dist[n]!) continue;
      if (d > limit) break;
      settled++;
      const need = targets.get(n);
      if (need !== undefined && d <= need && !found.has(n)) {
        found.add(n);
        left--;
      }
      for (const id of out[n]!) {
        const h = aHead[id]!;
        if (h === skip || contracted[h]) continue;
        const nd = d + aSecs[id]!;
        if (nd < dist[h]!) {
          if (dist[h] === Infinity) touched.push(h);
          dist[h] = nd;
          heap.push(h, nd);
        }
      }
    }
    // A target reached within its need but not yet settled is a witness too.
    for (const [t, need] of targets) if (!found.has(t) && dist[t]! <= need) found.add(t);
    for (const t of touched) dist[t] = Infinity;
    touched.length = 0;
    heap.clear();
    return found;
  };

  /** The shortcuts contracting `v` needs: [arc in, arc out] pairs with no witness. */
  const shortcutsOf = (v: number): [number, number][] => {
    const ins = into[v]!.filter((id) => !contracted[aTail[id]!]);
    const outs = out[v]!.filter((id) => !contracted[aHead[id]!]);
    const needed: [number, number][] = [];
    if (!ins.length || !outs.length) return needed;
    for (const i of ins) {
      const u = aTail[i]!;
      const targets = new Map<number, number>();
      let limit = 0;
      for (const o of outs) {
        const x = aHead[o]!;
        if (x === u) continue;
        const via = aSecs[i]! + aSecs[o]!;
        if (via < (targets.get(x) ?? Infinity)) targets.set(x, via);
        limit = Math.max(limit, via);
      }
      if (!targets.size) continue;
      const witnessed = witnessTo(u, v, targets, limit);
      for (const o of outs) {
        const x = aHead[o]!;
        if (x === u || witnessed.has(x)) continue;
        // Only the best pair for each neighbour (parallel arcs into or out of v).
        if (aSecs[i]! + aSecs[o]! > targets.get(x)!) continue;
        needed.push([i, o]);
        targets.set(x, -1); // one shortcut per (u, x)
      }
    }
    return needed;
  };

  const deletedNeighbours = new Uint32Array(N);
  const priority = (v: number) => {
    const degree =
      into[v]!.filter((id) => !contracted[aTail[id]!]).length +
      out[v]!.filter((id) => !contracted[aHead[id]!]).length;
    return 2 * (shortcutsOf(v).length - degree) + deletedNeighbours[v]!;
  };

  const queue = new Heap(N);
  for (let v = 0; v < N; v++) queue.push(v, priority(v));
  const rank = new Uint32Array(N);
  const upOf: number[][] = Array.from({ length: N }, () => []);
  const downOf: number[][] = Array.from({ length: N }, () => []);
  let order = 0;
  let lastReport = performance.now();
  while (queue.size) {
    const key = queue.peekKey();
    const v = queue.pop();
    if (contracted[v]) continue;
    // Lazy update: a node whose priority rose goes back in line.
    const p = priority(v);
    if (queue.size && p > key && p > queue.peekKey()) {
      queue.push(v, p);
      continue;
    }
    for (const [i, o] of shortcutsOf(v)) {
      const u = aTail[i]!;
      const x = aHead[o]!;
      const s = aSecs[i]! + aSecs[o]!;
      // A parallel arc u → x no faster than the shortcut is dropped from the search graph.
      const existing = out[u]!.find((id) => aHead[id] === x);
      if (existing !== undefined && aSecs[existing]! <= s) continue;
      if (existing !== undefined) {
        out[u]!.splice(out[u]!.indexOf(existing), 1);
        into[x]!.splice(into[x]!.indexOf(existing), 1);
      }
      addArc(u, x, s, aMeters[i]! + aMeters[o]!, i, o);
    }
    contracted[v] = 1;
    rank[v] = order++;
    for (const id of out[v]!) {
      const x = aHead[id]!;
      if (!contracted[x]) {
        upOf[v]!.push(id);
        deletedNeighbours[x]!++;
      }
    }
    for (const id of into[v]!) {
      const u = aTail[id]!;
      if (!contracted[u]) {
        downOf[v]!.push(id);
        deletedNeighbours[u]!++;
      }
    }
    const now = performance.now();
    if (now - lastReport > 100) {
      lastReport = now;
      onProgress(order / N);
    }
  }
  onProgress(1);

  const csr = (lists: number[][]) => {
    const first = new Uint32Array(N + 1);
    for (let n = 0; n < N; n++) first[n + 1] = first[n]! + lists[n]!.length;
    const flat = new Uint32Array(first[N]!);
    for (let n = 0; n < N; n++) flat.set(lists[n]!, first[n]!);
    return { first, flat };
  };
  const upCsr = csr(upOf);
  const downCsr = csr(downOf);
  return {
    copyArc: Uint32Array.from(copyArc),
    arcHeadNode,
    rank,
    arcTail: Uint32Array.from(aTail),
    arcHead: Uint32Array.from(aHead),
    arcSeconds: Float64Array.from(aSecs),
    arcMeters: Float64Array.from(aMeters),
    arcA: Int32Array.from(aA),
    arcB: Int32Array.from(aB),
    upFirst: upCsr.first,
    up: upCsr.flat,
    downFirst: downCsr.first,
    down: downCsr.flat,
  };
}

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

interface Side {
  time: Float64Array;
  meters: Float64Array;
  /** the hierarchy's arc a node was reached by (-1 - seed index: a seed) */
  parent: Int32Array;
  done: Uint8Array;
  touched: number[];
  heap: Heap;
}

const prepared = new WeakMap<Hierarchy, Prepared>();

function prepare(g: RoadGraph, h: Hierarchy): Prepared {
  let p = prepared.get(h);
  if (!p) {
    const N = h.rank.length;
    const copies = copiesOf(g, h.copyArc);
    const side = (): Side => ({
      time: new Float64Array(N).fill(Infinity),
      meters: new Float64Array(N),
      parent: new Int32Array(N),
      done: new Uint8Array(N),
      touched: [],
      heap: new Heap(),
    });
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

function reset(side: Side) {
  for (const n of side.touched) {
    side.time[n] = Infinity;
    side.done[n] = 0;
  }
  side.touched.length = 0;
  side.heap.clear();
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
    }
  } else if (along) {
    leg = {
      seconds: along.seconds,
      meters: along.meters,
      ...(paths && { path: lineAlong(g, from, to, []) }),
    };
  }
  reset(fw);
  reset(bw);
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
    reset(bw);
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
    reset(fw);
    return row;
  });
}
