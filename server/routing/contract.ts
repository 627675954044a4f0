import { type RoadGraph, tailsOf } from "./graph";
import { type Hierarchy, copiesOf } from "./hierarchy";
import type { Mode } from "./profiles";
import { Heap, banned } from "./search";

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
