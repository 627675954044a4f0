import type Database from "better-sqlite3";
import { GeofenceIndex, type IndexedGeofence } from "../geofence-index";
import { VERSION } from "./geofence-rows";

type Row = Omit<IndexedGeofence, "live" | "enabled"> & { live: number; enabled: number };
/** A change: the geofence as it is now, its fields null when it is gone. */
type ChangeRow = { n: number; changed: number } & { [K in keyof Row]: Row[K] | null };

const COLUMNS = `g."seq", g."live", g."minLng", g."minLat", g."maxLng", g."maxLat", g."tag", g."enabled", ${VERSION("g")}`;
const ALL = `SELECT ${COLUMNS} FROM "Geofence" g ORDER BY g."seq"`;
const LAST = `SELECT COALESCE(MAX("n"), 0) FROM "GeofenceChange"`;
const SINCE = `SELECT c."n", c."seq" AS "changed", ${COLUMNS}
  FROM "GeofenceChange" c LEFT JOIN "Geofence" g ON g."seq" = c."seq" WHERE c."n" > ? ORDER BY c."n"`;

const indexed = (r: Row): IndexedGeofence => ({
  seq: r.seq,
  version: r.version,
  live: r.live === 1,
  tag: r.tag,
  enabled: r.enabled === 1,
  minLng: r.minLng,
  minLat: r.minLat,
  maxLng: r.maxLng,
  maxLat: r.maxLat,
});

/**
 * Tracking's index of geofences (../geofence-index.ts), fed from SQLite's "GeofenceChange" table
 * (migration 20261212000000_geofence_changes: the number of each geofence's last change, kept by
 * triggers; numbers only grow, as SQLite has one writer). `refresh`, called inside the transaction
 * whose reads it serves, makes it answer exactly what the database holds in that transaction,
 * whichever process wrote the geofences.
 */
export class SqliteGeofenceIndex extends GeofenceIndex {
  constructor(private readonly statement: (sql: string) => Database.Statement) {
    super();
  }

  /** Applies the changes made since the last call (all geofences, the first time). */
  refresh(): void {
    if (!this.loaded) {
      const last = this.statement(LAST).pluck().get() as number;
      this.load(last, (this.statement(ALL).all() as Row[]).map(indexed));
      return;
    }
    const changes = this.statement(SINCE).all(this.last) as ChangeRow[];
    if (!changes.length) return;
    this.apply(
      changes.map((c) => ({ n: c.n, seq: c.changed, now: c.seq === null ? null : indexed(c as Row) })),
    );
  }
}
