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
    // every 4 MB, and keep 64 MB of pages cached: a tracked update under load costs much less
    // (docs/performance.md). Savepoint journals stay in memory rather than in temporary files:
    // every tracked update runs in a savepoint.
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

const pad2 = (n: number) => (n < 10 ? `0${n}` : `${n}`);
const pad3 = (n: number) => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : `${n}`);
/** 0001-01-01 and 10000-01-01 in ms: the years toISOString writes with four digits and no sign. */
const FOUR_DIGIT_YEARS = [-62135596800000, 253402300800000] as const;

/** A stored DateTime column read back (null stays null). */
export const rowDate = (text: string | null): Date | null => (text === null ? null : new Date(text));

/**
 * DateTime as Prisma's SQLite adapter writes it (`toISOString()` with "+00:00" for "Z"), so both
 * sides compare and parse alike. Written from the day number rather than with toISOString and
 * replace: a dense tracked update writes about 35 dates, and this is three times faster (0.15
 * against 0.44 µs; connection.test.ts checks it against toISOString).
 */
export function sqlDate(d: Date): string {
  const ms = d.getTime();
  if (!(ms >= FOUR_DIGIT_YEARS[0] && ms < FOUR_DIGIT_YEARS[1])) return d.toISOString().replace("Z", "+00:00");
  const days = Math.floor(ms / 86_400_000);
  let rest = ms - days * 86_400_000;
  // The civil date of a day number (H. Hinnant's days_from_civil, inverted), in 400-year eras.
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra -
      Math.floor(dayOfEra / 1460) +
      Math.floor(dayOfEra / 36_524) -
      Math.floor(dayOfEra / 146_096)) /
      365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const m = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * m + 2) / 5) + 1;
  const month = m < 10 ? m + 3 : m - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1000);
  const yyyy = year < 1000 ? `000${year}`.slice(-4) : `${year}`;
  return `${yyyy}-${pad2(month)}-${pad2(day)}T${pad2(hours)}:${pad2(minutes)}:${pad2(seconds)}.${pad3(rest - seconds * 1000)}+00:00`;
}

export const inList = (n: number) => Array.from({ length: n }, () => "?").join(",");

/** Runs `fn` in a transaction (BEGIN IMMEDIATE), or in the one under way. */
export function transaction<T>(fn: () => T): T {
  const db = connection();
  return db.inTransaction ? db.transaction(fn)() : db.transaction(fn).immediate();
}
