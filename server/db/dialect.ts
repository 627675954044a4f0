import Database from "better-sqlite3";
import { databaseFile } from "../config/database-url";
import type { BBox } from "../geo/distance";
import type { GeofenceRecord } from "../geofences/schema";

/**
 * The dialect-specific queries of the data layer, SQLite edition: spatial candidate lookups
 * through the R*Tree virtual tables the migrations create. A PostgreSQL/PostGIS build
 * answers the same functions with GiST-indexed `&&` queries; nothing outside this file
 * knows which one runs.
 *
 * These reads use a connection of their own (WAL lets it read beside Prisma's writer): the
 * R*Tree join is the hot path of search and tracking, and a prepared statement costs a few
 * microseconds where a raw Prisma query costs about a millisecond.
 */

let db: Database.Database | undefined;
const statements = new Map<string, Database.Statement>();

function connection(): Database.Database {
  if (!db) {
    db = new Database(databaseFile(), { fileMustExist: true, timeout: 5000 });
  }
  return db;
}

function prepared(sql: string): Database.Statement {
  let stmt = statements.get(sql);
  if (!stmt) {
    stmt = connection().prepare(sql);
    statements.set(sql, stmt);
  }
  return stmt;
}

interface GeofenceRow {
  seq: number;
  id: string;
  live: number;
  description: string;
  tag: string | null;
  externalId: string | null;
  type: string;
  geometry: string;
  centerLng: number;
  centerLat: number;
  radius: number;
  minLng: number;
  minLat: number;
  maxLng: number;
  maxLat: number;
  metadata: string | null;
  enabled: number;
  dwellThreshold: number | null;
  createdAt: string | number;
  updatedAt: string | number;
}

/** Prisma's SQLite adapter writes DateTime as ISO 8601 text. */
const toDate = (v: string | number) => new Date(v);

function toRecord(r: GeofenceRow): GeofenceRecord {
  return {
    ...r,
    live: r.live === 1,
    enabled: r.enabled === 1,
    geometry: JSON.parse(r.geometry) as unknown,
    metadata: r.metadata === null ? null : (JSON.parse(r.metadata) as unknown),
    createdAt: toDate(r.createdAt),
    updatedAt: toDate(r.updatedAt),
  };
}

/** Geofences of one world whose bounding box meets `box`, optionally only those with a tag in `tags`. */
export function geofencesInBox(live: boolean, box: BBox, tags?: readonly string[]): GeofenceRecord[] {
  const tagFilter = tags?.length ? ` AND g."tag" IN (${tags.map(() => "?").join(",")})` : "";
  const sql = `SELECT g.* FROM "GeofenceRTree" r JOIN "Geofence" g ON g."seq" = r."seq"
    WHERE r."maxLng" >= ? AND r."minLng" <= ? AND r."maxLat" >= ? AND r."minLat" <= ? AND g."live" = ?${tagFilter}`;
  const rows = prepared(sql).all(
    box.minLng,
    box.maxLng,
    box.minLat,
    box.maxLat,
    live ? 1 : 0,
    ...(tags ?? []),
  ) as GeofenceRow[];
  return rows.map(toRecord);
}
