import { type RoadGraph, tailsOf } from "./graph";
import { type Hierarchy, copiesOf } from "./hierarchy";
import type { Mode } from "./profiles";
import { Heap } from "./heap";
import { banned } from "./search";
import { grow, growAll } from "./road-runs";

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
  const c = new Contraction(g, mode);
  c.run(onProgress);
  return c.hierarchy();
}

/** The search graph as it is contracted: nodes, arcs (the graph's and the shortcuts) and ranks. */
class Contraction {
  /** per node beyond the vertices: the arc into a restricted vertex that the copy stands for */
  readonly copyArc: number[] = [];
  readonly arcHeadNode: Uint32Array;
  readonly N: number;
  // The arcs, by id: tail and head nodes, seconds, meters, and the two arcs a shortcut joins
  // (a graph arc: its own id and -1). Typed arrays and lists linked through them, not an array
  // per node: a country's graph has millions of nodes (docs/performance.md).
  aTail = new Uint32Array(1 << 12);
  aHead = new Uint32Array(1 << 12);
  aSecs = new Float64Array(1 << 12);
  aMeters = new Float64Array(1 << 12);
  aA = new Int32Array(1 << 12);
  aB = new Int32Array(1 << 12);
  arcs = 0;
  /** each node's arcs out and in, in the order added: first, last, and each arc's next (-1: none) */
  readonly out: ArcLists;
  readonly into: ArcLists;
  readonly contracted: Uint8Array;
  readonly rank: Uint32Array;
  /** the up and down arcs of each node, filed when it is contracted: where they begin, how many */
  private upBegin: Uint32Array;
  private upCount: Uint32Array;
  private downBegin: Uint32Array;
  private downCount: Uint32Array;
  private upFlat = new Uint32Array(1 << 12);
  private downFlat = new Uint32Array(1 << 12);
  private ups = 0;
  private downs = 0;
  private deletedNeighbours: Uint32Array;
  // The witness searches' state, reused.
  private dist: Float64Array;
  private touched: number[] = [];
  private heap = new Heap();

  constructor(g: RoadGraph, mode: Mode) {
    const V = g.lng.length;
    const A = g.head.length;
    const secs = g.seconds[mode];
    const turns = mode === "car" && g.turnBans.length > 0;
    const restricted = (v: number) => turns && g.restrictedVia[v] === 1;
    // Nodes: the vertices, then one copy per usable arc into a restricted vertex.
    this.arcHeadNode = new Uint32Array(A);
    for (let a = 0; a < A; a++) {
      this.arcHeadNode[a] =
        restricted(g.head[a]!) && secs[a] !== Infinity ? V + this.copyArc.push(a) - 1 : g.head[a]!;
    }
    const N = (this.N = V + this.copyArc.length);
    this.out = new ArcLists(N);
    this.into = new ArcLists(N);
    this.contracted = new Uint8Array(N);
    this.rank = new Uint32Array(N);
    this.upBegin = new Uint32Array(N);
    this.upCount = new Uint32Array(N);
    this.downBegin = new Uint32Array(N);
    this.downCount = new Uint32Array(N);
    this.deletedNeighbours = new Uint32Array(N);
    this.dist = new Float64Array(N).fill(Infinity);
    this.addGraphArcs(g, secs, restricted);
  }

  /** The graph's usable arcs, from every node their tail is (each copy its allowed turns). */
  private addGraphArcs(g: RoadGraph, secs: RoadGraph["seconds"][Mode], restricted: (v: number) => boolean) {
    const V = g.lng.length;
    const tail = tailsOf(g);
    const copies = copiesOf(g, this.copyArc);
    for (let a = 0; a < g.head.length; a++) {
      if (secs[a] === Infinity) continue;
      const u = tail[a]!;
      const meters = g.edgeLength[g.edgeOf[a]!]!;
      const head = this.arcHeadNode[a]!;
      // A restricted vertex itself, entered by no arc, is where an origin at it starts: every
      // turn is open from it; its copies have the turns allowed after their arc.
      this.addArc(u, head, secs[a]!, meters, a, -1);
      if (!restricted(u)) continue;
      for (const copy of copies.get(u) ?? []) {
        if (!banned(g.turnBans, this.copyArc[copy - V]!, a)) this.addArc(copy, head, secs[a]!, meters, a, -1);
      }
    }
  }

  addArc(t: number, h: number, s: number, m: number, a: number, b: number) {
    if (this.arcs === this.aTail.length)
      growAll<Contraction>(this, ["aTail", "aHead", "aSecs", "aMeters", "aA", "aB"]);
    const id = this.arcs++;
    this.aTail[id] = t;
    this.aHead[id] = h;
    this.aSecs[id] = s;
    this.aMeters[id] = m;
    this.aA[id] = a;
    this.aB[id] = b;
    this.out.append(t, id);
    this.into.append(h, id);
    return id;
  }

  /**
   * Which of `targets` a path from `s` avoiding `skip` reaches within its need (seconds): a
   * bounded Dijkstra among the nodes not yet contracted.
   */
  private witnessTo(s: number, skip: number, targets: Map<number, number>, limit: number) {
    const { dist, touched, heap, out, aHead, aSecs, contracted } = this;
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
      for (let id = out.first[n]!; id >= 0; id = out.next[id]!) {
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
  }

  /** The shortcuts contracting `v` needs: [arc in, arc out] pairs with no witness. */
  private shortcutsOf(v: number): [number, number][] {
    const { aTail, aHead, aSecs, contracted } = this;
    const ins = this.into.list(v).filter((id) => !contracted[aTail[id]!]);
    const outs = this.out.list(v).filter((id) => !contracted[aHead[id]!]);
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
      const witnessed = this.witnessTo(u, v, targets, limit);
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
  }

  /** Edge difference (shortcuts added less arcs removed), and how many neighbours went before. */
  private priority(v: number) {
    const { aTail, aHead, contracted } = this;
    let degree = 0;
    for (let id = this.into.first[v]!; id >= 0; id = this.into.next[id]!)
      if (!contracted[aTail[id]!]) degree++;
    for (let id = this.out.first[v]!; id >= 0; id = this.out.next[id]!) if (!contracted[aHead[id]!]) degree++;
    return 2 * (this.shortcutsOf(v).length - degree) + this.deletedNeighbours[v]!;
  }

  /** Contracts every node, least important first (lazy updates of the priorities). */
  run(onProgress: (f: number) => void) {
    const queue = new Heap(this.N);
    for (let v = 0; v < this.N; v++) queue.push(v, this.priority(v));
    let order = 0;
    let lastReport = performance.now();
    while (queue.size) {
      const key = queue.peekKey();
      const v = queue.pop();
      if (this.contracted[v]) continue;
      // Lazy update: a node whose priority rose goes back in line.
      const p = this.priority(v);
      if (queue.size && p > key && p > queue.peekKey()) {
        queue.push(v, p);
        continue;
      }
      this.contractNode(v, order++);
      const now = performance.now();
      if (now - lastReport > 100) {
        lastReport = now;
        onProgress(order / this.N);
      }
    }
    onProgress(1);
  }

  /** Adds `v`'s shortcuts, ranks it, and files its arcs to the nodes left as up and down arcs. */
  private contractNode(v: number, rank: number) {
    // The arc arrays are read through `this`: adding a shortcut may replace them with larger ones.
    const { out, into } = this;
    for (const [i, o] of this.shortcutsOf(v)) {
      const u = this.aTail[i]!;
      const x = this.aHead[o]!;
      const s = this.aSecs[i]! + this.aSecs[o]!;
      // A parallel arc u → x no faster than the shortcut is dropped from the search graph.
      let existing = -1;
      for (let id = out.first[u]!; id >= 0; id = out.next[id]!) {
        if (this.aHead[id] === x) {
          existing = id;
          break;
        }
      }
      if (existing >= 0 && this.aSecs[existing]! <= s) continue;
      if (existing >= 0) {
        out.remove(u, existing);
        into.remove(x, existing);
      }
      this.addArc(u, x, s, this.aMeters[i]! + this.aMeters[o]!, i, o);
    }
    this.contracted[v] = 1;
    this.rank[v] = rank;
    this.upBegin[v] = this.ups;
    for (let id = out.first[v]!; id >= 0; id = out.next[id]!) {
      const x = this.aHead[id]!;
      if (!this.contracted[x]) {
        if (this.ups === this.upFlat.length) this.upFlat = grow(this.upFlat);
        this.upFlat[this.ups++] = id;
        this.deletedNeighbours[x]!++;
      }
    }
    this.upCount[v] = this.ups - this.upBegin[v]!;
    this.downBegin[v] = this.downs;
    for (let id = into.first[v]!; id >= 0; id = into.next[id]!) {
      const u = this.aTail[id]!;
      if (!this.contracted[u]) {
        if (this.downs === this.downFlat.length) this.downFlat = grow(this.downFlat);
        this.downFlat[this.downs++] = id;
        this.deletedNeighbours[u]!++;
      }
    }
    this.downCount[v] = this.downs - this.downBegin[v]!;
  }

  /** The hierarchy as the query reads it: typed arrays, up and down arcs in CSR form. */
  hierarchy(): Hierarchy {
    const N = this.N;
    const csr = (all: Uint32Array, begin: Uint32Array, count: Uint32Array) => {
      const first = new Uint32Array(N + 1);
      for (let n = 0; n < N; n++) first[n + 1] = first[n]! + count[n]!;
      const flat = new Uint32Array(first[N]!);
      for (let n = 0; n < N; n++) flat.set(all.subarray(begin[n]!, begin[n]! + count[n]!), first[n]!);
      return { first, flat };
    };
    const upCsr = csr(this.upFlat, this.upBegin, this.upCount);
    const downCsr = csr(this.downFlat, this.downBegin, this.downCount);
    return {
      copyArc: Uint32Array.from(this.copyArc),
      arcHeadNode: this.arcHeadNode,
      rank: this.rank,
      arcTail: this.aTail.slice(0, this.arcs),
      arcHead: this.aHead.slice(0, this.arcs),
      arcSeconds: this.aSecs.slice(0, this.arcs),
      arcMeters: this.aMeters.slice(0, this.arcs),
      arcA: this.aA.slice(0, this.arcs),
      arcB: this.aB.slice(0, this.arcs),
      upFirst: upCsr.first,
      up: upCsr.flat,
      downFirst: downCsr.first,
      down: downCsr.flat,
    };
  }
}

/**
 * Each node's arcs as a list linked through typed arrays, in the order they were added (the
 * contraction's searches and its choice among parallel arcs go by that order).
 */
class ArcLists {
  first: Int32Array;
  last: Int32Array;
  next = new Int32Array(1 << 12);

  constructor(nodes: number) {
    this.first = new Int32Array(nodes).fill(-1);
    this.last = new Int32Array(nodes).fill(-1);
  }

  append(node: number, arc: number) {
    while (arc >= this.next.length) this.next = grow(this.next);
    this.next[arc] = -1;
    const last = this.last[node]!;
    if (last < 0) this.first[node] = arc;
    else this.next[last] = arc;
    this.last[node] = arc;
  }

  remove(node: number, arc: number) {
    let before = -1;
    for (let id = this.first[node]!; id >= 0 && id !== arc; id = this.next[id]!) before = id;
    const after = this.next[arc]!;
    if (before < 0) this.first[node] = after;
    else this.next[before] = after;
    if (this.last[node] === arc) this.last[node] = before;
  }

  /** The node's arcs, as an array. */
  list(node: number): number[] {
    const out: number[] = [];
    for (let id = this.first[node]!; id >= 0; id = this.next[id]!) out.push(id);
    return out;
  }
}
