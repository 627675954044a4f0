import type Database from "better-sqlite3";
import Flatbush from "flatbush";
import type { BBox } from "../../geo/distance";
import type { GeofenceVersion } from "../../storage/port";
import { VERSION } from "./geofences";

/** A geofence as the index holds it: its world, its box and its version. */
interface Entry extends GeofenceVersion {
  live: boolean;
  minLng: number;
  minLat: number;
  maxLng: number;
  maxLat: number;
}

type Row = Omit<Entry, "live"> & { live: number };
/** A change: the geofence as it is now, its fields null when it is gone. */
type ChangeRow = { n: number; seq: number } & { [K in keyof Row]: Row[K] | null };

const COLUMNS = `g."seq", g."live", g."minLng", g."minLat", g."maxLng", g."maxLat", ${VERSION("g")}`;
const ALL = `SELECT ${COLUMNS} FROM "Geofence" g ORDER BY g."seq"`;
const LAST = `SELECT COALESCE(MAX("n"), 0) FROM "GeofenceChange"`;
const SINCE = `SELECT c."n", c."seq" AS "changed", ${COLUMNS}
  FROM "GeofenceChange" c LEFT JOIN "Geofence" g ON g."seq" = c."seq" WHERE c."n" > ? ORDER BY c."n"`;

/** Written entries kept beside the tree before it is rebuilt: this many, plus one per eight in it. */
const REBUILD_AFTER = 256;

const entryOf = (r: Row): Entry => ({
  seq: r.seq,
  version: r.version,
  live: r.live === 1,
  minLng: r.minLng,
  minLat: r.minLat,
  maxLng: r.maxLng,
  maxLat: r.maxLat,
});

const meets = (e: Entry, box: BBox) =>
  e.maxLng >= box.minLng && e.minLng <= box.maxLng && e.maxLat >= box.minLat && e.minLat <= box.maxLat;

/**
 * The boxes and versions of every geofence, in memory, for tracking: which geofences are near a
 * fix is asked at every update, and a dense area answers dozens (64–72 µs per update from the
 * R*Tree, docs/performance.md). A static tree (flatbush) holds the geofences known when it was
 * built; those written since (created, moved, renamed, deleted) are kept beside it in a map and
 * mask their old entries, until there are enough of them to rebuild the tree.
 *
 * `refresh` brings it up to date from the "GeofenceChange" table (migration
 * 20261212000000_geofence_changes: the number of each geofence's last change, kept by triggers),
 * reading only the changes since the last one it saw. Called inside the transaction whose reads it
 * serves, it answers exactly what the database holds in that transaction, whichever process
 * wrote the geofences.
 */
export class GeofenceIndex {
  /** the number of the last change applied; -1 before the first load */
  private last = -1;
  private tree: Flatbush | null = null;
  /** the tree's entries by item index, in ascending seq (so a seq is found by bisection) */
  private built = packed([]);
  /** seqs whose entry in the tree is outdated (written or deleted since the build) */
  private readonly stale = new Set<number>();
  /** geofences written since the build, as they are now */
  private readonly recent = new Map<number, Entry>();

  constructor(private readonly statement: (sql: string) => Database.Statement) {}

  /** Applies the changes made since the last call (all geofences, the first time). */
  refresh(): void {
    if (this.last < 0) {
      this.last = this.statement(LAST).pluck().get() as number;
      this.build((this.statement(ALL).all() as Row[]).map(entryOf));
      return;
    }
    const changes = this.statement(SINCE).all(this.last) as (ChangeRow & { changed: number })[];
    if (!changes.length) return;
    for (const c of changes) {
      this.last = c.n;
      this.stale.add(c.changed);
      if (c.seq === null) this.recent.delete(c.changed);
      else this.recent.set(c.changed, entryOf(c as Row));
    }
    if (this.stale.size + this.recent.size > REBUILD_AFTER + this.built.seqs.length / 8) {
      const kept: Entry[] = [];
      for (let i = 0; i < this.built.seqs.length; i++) {
        if (!this.stale.has(this.built.seqs[i]!)) kept.push(this.built.entry(i));
      }
      this.build([...kept, ...this.recent.values()].sort((a, b) => a.seq - b.seq));
    }
  }

  /** Builds the tree of these entries (in ascending seq). */
  private build(entries: Entry[]): void {
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
    const { seqs: built, versions, lives } = this.built;
    const world = live ? 1 : 0;
    if (this.tree) {
      for (const i of this.tree.search(box.minLng, box.minLat, box.maxLng, box.maxLat)) {
        const seq = built[i]!;
        if (lives[i] === world && !this.stale.has(seq)) {
          out.push({ seq, version: versions[i]! });
          seen.add(seq);
        }
      }
    }
    for (const e of this.recent.values()) {
      if (e.live === live && meets(e, box)) {
        out.push({ seq: e.seq, version: e.version });
        seen.add(e.seq);
      }
    }
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
}

/** Entries in typed arrays (a country's geofences would be millions of objects). */
function packed(entries: readonly Entry[]) {
  const n = entries.length;
  const seqs = new Float64Array(n);
  const versions = new Float64Array(n);
  const lives = new Uint8Array(n);
  const boxes = new Float64Array(4 * n);
  entries.forEach((e, i) => {
    seqs[i] = e.seq;
    versions[i] = e.version;
    lives[i] = e.live ? 1 : 0;
    boxes.set([e.minLng, e.minLat, e.maxLng, e.maxLat], 4 * i);
  });
  return {
    seqs,
    versions,
    lives,
    entry: (i: number): Entry => ({
      seq: seqs[i]!,
      version: versions[i]!,
      live: lives[i] === 1,
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
