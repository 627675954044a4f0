import type { WayProfile } from "./profiles";

/**
 * The routable ways an import collects before the road graph is built (./graph.ts buildGraph),
 * in typed arrays rather than an object and three arrays per way: for a country's 3 million
 * ways that is the difference between fitting in memory or not (docs/performance.md).
 *
 * A run is the part of one way inside the extract: its nodes' ids and positions lie at
 * runStart[r] .. runStart[r + 1] - 1 of the node arrays; its way id and profile by run. Profiles
 * repeat (the same road class, speeds and name): each distinct one is kept once.
 */
export class RoadRuns {
  nodeId = new Float64Array(1 << 12);
  nodeLng = new Float64Array(1 << 12);
  nodeLat = new Float64Array(1 << 12);
  nodes = 0;
  /** per run: its first node (and one more entry at the end), its way's id (NaN: none), its profile */
  starts = new Uint32Array(1 << 10);
  ways = new Float64Array(1 << 10);
  profileOf = new Uint32Array(1 << 10);
  runs = 0;
  readonly profiles: WayProfile[] = [];
  private profileIndex = new Map<string, number>();
  /** where the run being added begins in the node arrays */
  private open = 0;

  /** Adds a node to the run being added (endRun ends it). */
  node(id: number, lng: number, lat: number) {
    if (this.nodes === this.nodeId.length) growAll<RoadRuns>(this, ["nodeId", "nodeLng", "nodeLat"]);
    this.nodeId[this.nodes] = id;
    this.nodeLng[this.nodes] = lng;
    this.nodeLat[this.nodes] = lat;
    this.nodes++;
  }

  /** Ends the run of the nodes added since the last one (fewer than two: dropped). */
  endRun(way: number | undefined, profile: WayProfile | null) {
    if (this.nodes - this.open < 2 || !profile) {
      this.nodes = this.open;
      return;
    }
    if (this.runs + 1 >= this.starts.length) growAll<RoadRuns>(this, ["starts", "ways", "profileOf"]);
    const key = JSON.stringify(profile);
    let p = this.profileIndex.get(key);
    if (p === undefined) {
      p = this.profiles.push(profile) - 1;
      this.profileIndex.set(key, p);
    }
    this.starts[this.runs] = this.open;
    this.ways[this.runs] = way ?? NaN;
    this.profileOf[this.runs] = p;
    this.runs++;
    this.starts[this.runs] = this.nodes;
    this.open = this.nodes;
  }

  /** How many nodes the run being added has. */
  openNodes(): number {
    return this.nodes - this.open;
  }

  start(r: number) {
    return this.starts[r]!;
  }
  end(r: number) {
    return this.starts[r + 1]!;
  }
  way(r: number): number | undefined {
    const w = this.ways[r]!;
    return Number.isNaN(w) ? undefined : w;
  }
  profile(r: number): number {
    return this.profileOf[r]!;
  }

  /** Frees the arrays (the graph is built: they are no longer needed). */
  clear() {
    this.nodeId = this.nodeLng = this.nodeLat = new Float64Array(0);
    this.starts = new Uint32Array(1);
    this.ways = new Float64Array(0);
    this.profileOf = new Uint32Array(0);
    this.nodes = this.runs = this.open = 0;
  }

  /** Runs from ways given as objects (tests, synthetic towns). */
  static of(ways: Iterable<RoutableWay>): RoadRuns {
    const runs = new RoadRuns();
    for (const w of ways) {
      for (let i = 0; i < w.nodes.length; i++) runs.node(w.nodes[i]!, w.lngs[i]!, w.lats[i]!);
      runs.endRun(w.id, w.profile);
    }
    return runs;
  }
}

/** A routable way as an object: its nodes in order and its profile. */
export interface RoutableWay {
  id?: number;
  nodes: number[];
  lngs: ArrayLike<number>;
  lats: ArrayLike<number>;
  profile: WayProfile;
}

type Growable = Float64Array | Uint32Array | Int32Array | Uint8Array;

/** Grows the named arrays of `o` together (columns of one table, kept the same length). */
export function growAll<T>(o: T, keys: readonly (keyof T)[]): void {
  for (const k of keys) o[k] = grow(o[k] as Growable) as T[keyof T];
}

/** The array with twice the room (1.5 times beyond 16 M entries: less to hold at once while copying). */
export function grow<T extends Growable>(a: T): T {
  const size = a.length < 1 << 24 ? a.length * 2 : Math.ceil(a.length * 1.5);
  const b = new (a.constructor as new (n: number) => T)(size);
  b.set(a);
  return b;
}
