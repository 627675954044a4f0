import Flatbush from "flatbush";
import type { BBox } from "../geo/distance";
import type { GeofenceBox, GeofenceVersion } from "../storage/geofences";

/** A geofence as the index holds it: its world, its box, its version, its tag and whether it is enabled. */
export type IndexedGeofence = GeofenceBox;

/** A geofence's change: its number, and the geofence as it is now (null: deleted). */
export interface GeofenceChange {
  n: number;
  seq: number;
  now: IndexedGeofence | null;
}

/** Written entries kept beside the tree before it is rebuilt: this many, plus one per eight in it. */
const REBUILD_AFTER = 256;

const meets = (e: IndexedGeofence, box: BBox) =>
  e.maxLng >= box.minLng && e.minLng <= box.maxLng && e.maxLat >= box.minLat && e.minLat <= box.maxLat;

/**
 * The boxes and versions of every geofence, in memory, for tracking: which geofences are near a
 * fix is asked at every update, and a dense area answers dozens (a visible part of a dense update
 * from SQLite's R*Tree, and rows per update on PostgreSQL; docs/performance.md). A static tree
 * (flatbush) holds the geofences known when it was built; those written since (created, moved,
 * renamed, deleted) are kept beside it in a map and mask their old entries, until there are
 * enough of them to rebuild the tree.
 *
 * Each engine feeds it from its "GeofenceChange" table (one row per geofence ever written, with
 * the number of its last change, kept by triggers; ./sqlite/geofence-index.ts,
 * ./postgresql/geofence-index.ts): everything once, then at each batch the changes numbered after
 * the last one applied. Changes are applied in their numbers' order and at most once, so feeds
 * that overlap (two batches refreshing at once) are harmless.
 */
export class GeofenceIndex {
  /** the number of the last change applied; -1 before the first load */
  last = -1;
  private tree: Flatbush | null = null;
  /** the tree's entries by item index, in ascending seq (so a seq is found by bisection) */
  private built = packed([]);
  /** seqs whose entry in the tree is outdated (written or deleted since the build) */
  private readonly stale = new Set<number>();
  /** geofences written since the build, as they are now */
  private readonly recent = new Map<number, IndexedGeofence>();

  get loaded(): boolean {
    return this.last >= 0;
  }

  /** Starts again from every geofence (in ascending seq) as of change `last`. */
  load(last: number, geofences: IndexedGeofence[]): void {
    this.build(geofences);
    this.last = last;
  }

  /** Applies changes (in ascending n); those already applied are skipped. */
  apply(changes: readonly GeofenceChange[]): void {
    let applied = false;
    for (const c of changes) {
      if (c.n <= this.last) continue;
      this.last = c.n;
      applied = true;
      this.stale.add(c.seq);
      if (c.now === null) this.recent.delete(c.seq);
      else this.recent.set(c.seq, c.now);
    }
    if (applied && this.stale.size + this.recent.size > REBUILD_AFTER + this.built.seqs.length / 8) {
      const kept: IndexedGeofence[] = [];
      for (let i = 0; i < this.built.seqs.length; i++) {
        if (!this.stale.has(this.built.seqs[i]!)) kept.push(this.built.entry(i));
      }
      this.build([...kept, ...this.recent.values()].sort((a, b) => a.seq - b.seq));
    }
  }

  /** Builds the tree of these entries (in ascending seq). */
  private build(entries: IndexedGeofence[]): void {
    this.built = packed(entries);
    this.stale.clear();
    this.recent.clear();
    this.tree = null;
    if (!entries.length) return;
    const tree = new Flatbush(entries.length);
    for (const e of entries) tree.add(e.minLng, e.minLat, e.maxLng, e.maxLat);
    tree.finish();
    this.tree = tree;
  }

  /**
   * The versions of one world's geofences whose box meets `box`, and of those of `seqs` that exist
   * (the geofences a user is in, wherever they are), as of the last refresh.
   */
  near(live: boolean, box: BBox, seqs: readonly number[]): GeofenceVersion[] {
    const out: GeofenceVersion[] = [];
    const seen = new Set<number>();
    this.each(live, box, (seq, version) => {
      out.push({ seq, version });
      seen.add(seq);
    });
    const { versions } = this.built;
    for (const seq of seqs) {
      if (seen.has(seq)) continue;
      const e = this.recent.get(seq);
      if (e) out.push({ seq, version: e.version });
      else if (!this.stale.has(seq)) {
        const i = this.built.find(seq);
        if (i >= 0) out.push({ seq, version: versions[i]! });
      }
    }
    return out;
  }

  /**
   * One world's geofences whose box meets `box`, with their boxes (what a search needs to order
   * them by how near they can be), as of the last refresh: of some tags only, enabled ones only.
   */
  inBox(
    live: boolean,
    box: BBox,
    { tags, enabledOnly = false }: { tags?: readonly string[]; enabledOnly?: boolean } = {},
  ): IndexedGeofence[] {
    const wanted = tags?.length ? new Set(tags) : null;
    const out: IndexedGeofence[] = [];
    this.each(live, box, (_seq, _version, entry) => {
      const e = entry();
      if ((!enabledOnly || e.enabled) && (!wanted || (e.tag !== null && wanted.has(e.tag)))) out.push(e);
    });
    return out;
  }

  /** Calls `found` for each current geofence of the world whose box meets `box`. */
  private each(
    live: boolean,
    box: BBox,
    found: (seq: number, version: number, entry: () => IndexedGeofence) => void,
  ): void {
    const { seqs: built, versions, lives } = this.built;
    const world = live ? 1 : 0;
    if (this.tree) {
      for (const i of this.tree.search(box.minLng, box.minLat, box.maxLng, box.maxLat)) {
        const seq = built[i]!;
        if (lives[i] === world && !this.stale.has(seq)) found(seq, versions[i]!, () => this.built.entry(i));
      }
    }
    for (const e of this.recent.values()) {
      if (e.live === live && meets(e, box)) found(e.seq, e.version, () => e);
    }
  }
}

/** Entries in typed arrays (a country's geofences would be millions of objects). */
function packed(entries: readonly IndexedGeofence[]) {
  const n = entries.length;
  const seqs = new Float64Array(n);
  const versions = new Float64Array(n);
  const lives = new Uint8Array(n);
  const enabled = new Uint8Array(n);
  const tags: (string | null)[] = new Array<string | null>(n);
  const boxes = new Float64Array(4 * n);
  entries.forEach((e, i) => {
    seqs[i] = e.seq;
    versions[i] = e.version;
    lives[i] = e.live ? 1 : 0;
    enabled[i] = e.enabled ? 1 : 0;
    tags[i] = e.tag;
    boxes.set([e.minLng, e.minLat, e.maxLng, e.maxLat], 4 * i);
  });
  return {
    seqs,
    versions,
    lives,
    entry: (i: number): IndexedGeofence => ({
      seq: seqs[i]!,
      version: versions[i]!,
      live: lives[i] === 1,
      tag: tags[i] ?? null,
      enabled: enabled[i] === 1,
      minLng: boxes[4 * i]!,
      minLat: boxes[4 * i + 1]!,
      maxLng: boxes[4 * i + 2]!,
      maxLat: boxes[4 * i + 3]!,
    }),
    /** the index of `seq`, or -1 */
    find(seq: number): number {
      let lo = 0;
      let hi = n - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        if (seqs[mid]! < seq) lo = mid + 1;
        else if (seqs[mid]! > seq) hi = mid - 1;
        else return mid;
      }
      return -1;
    },
  };
}
