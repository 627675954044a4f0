import Database from "better-sqlite3";
import { databaseFile } from "../../config/database-url";
import { seedClock } from "../../storage/ids";

/**
 * The SQLite dialect's own connection, beside Prisma's: the files in this folder are the only
 * raw SQL of the project. A PostgreSQL/PostGIS build replaces this folder; nothing outside it
 * knows which one runs.
 *
 * A prepared better-sqlite3 statement costs microseconds where a Prisma query costs about a
 * millisecond (docs/performance.md), so the per-request key check, spatial lookups and the
 * tracking transaction live here. Writes made here run inside withWriteLock (../write-lock.ts).
 */

// One connection per process, shared by every route bundle (and kept across hot reloads).
const shared = globalThis as unknown as {
  sqlite?: Database.Database;
  statements?: Map<string, Database.Statement>;
};
const statements = (shared.statements ??= new Map<string, Database.Statement>());

export function connection(): Database.Database {
  let db = shared.sqlite;
  if (!db) {
    db = shared.sqlite = new Database(databaseFile(), { fileMustExist: true, timeout: 5000 });
    // WAL is set on the file by the migration step; NORMAL sync is durable against a crashed
    // process (the WAL is in the OS before a commit returns), though not against power loss.
    db.pragma("synchronous = NORMAL");
    // Checkpoint (copy the WAL back into the database, with an fsync) every ~40 MB rather than
    // every 4 MB, and keep 64 MB of pages cached: measured 0.39 → 0.25 ms per tracked update
    // under load (docs/performance.md). Savepoint journals stay in memory rather than in
    // temporary files: every tracked update runs in a savepoint (about 12% faster).
    db.pragma("wal_autocheckpoint = 10000");
    db.pragma("cache_size = -65536");
    db.pragma("temp_store = MEMORY");
    const newest = db.prepare(`SELECT MAX("createdAt") AS t FROM "Geofence"`).get() as { t: string | null };
    if (newest.t) seedClock(Date.parse(newest.t));
  }
  return db;
}

export function prepared(sql: string): Database.Statement {
  let stmt = statements.get(sql);
  if (!stmt) {
    stmt = connection().prepare(sql);
    statements.set(sql, stmt);
  }
  return stmt;
}

/** DateTime as Prisma's SQLite adapter writes it, so both sides compare and parse alike. */
export const sqlDate = (d: Date) => d.toISOString().replace("Z", "+00:00");

export const inList = (n: number) => Array.from({ length: n }, () => "?").join(",");

/** Runs `fn` in a transaction (BEGIN IMMEDIATE), or in the one under way. */
export function transaction<T>(fn: () => T): T {
  const db = connection();
  return db.inTransaction ? db.transaction(fn)() : db.transaction(fn).immediate();
}
