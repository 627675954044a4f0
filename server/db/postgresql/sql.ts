import { createHash } from "node:crypto";
import type pg from "pg";
import { pool } from "./pool";

/**
 * The adapter's own SQL runs as named prepared statements: PostgreSQL plans each once per
 * connection, as better-sqlite3's prepared statements do for SQLite.
 */

export type Queryable = pg.Pool | pg.PoolClient;

const names = new Map<string, string>();
const nameOf = (text: string) => {
  let name = names.get(text);
  if (!name) {
    name = `q${createHash("sha1").update(text).digest("hex").slice(0, 16)}`;
    names.set(text, name);
  }
  return name;
};

export async function rows<T>(sql: string, values: unknown[] = [], on: Queryable = pool()): Promise<T[]> {
  const result = await on.query({ name: nameOf(sql), text: sql, values });
  return result.rows as T[];
}

export async function row<T>(sql: string, values: unknown[] = [], on: Queryable = pool()): Promise<T | null> {
  return (await rows<T>(sql, values, on))[0] ?? null;
}

/** A JSON column's parameter: SQL NULL for null, the JSON text otherwise (cast with ::jsonb). */
export const jsonb = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v));

/**
 * A transaction-scoped advisory lock's key for a name: 64 bits of its SHA-1, the same in every
 * app process.
 */
export function lockKey(name: string): bigint {
  return BigInt.asIntN(64, BigInt(`0x${createHash("sha1").update(name).digest("hex").slice(0, 16)}`));
}

/** Advisory locks on the keys given, one after the other in the array's order. */
const TAKE_LOCKS = `SELECT count(pg_advisory_xact_lock(k))::int AS n FROM unnest($1::bigint[]) AS k`;

/**
 * Runs `fn` in a transaction on one connection of the pool, holding advisory locks on `locks`
 * (names) from its start: taken in one order (by key), so transactions never wait in a circle,
 * and sent with BEGIN in one round trip.
 */
export async function inTransaction<T>(
  fn: (client: pg.PoolClient, commitNow: () => void) => Promise<T>,
  locks: readonly string[] = [],
): Promise<T> {
  const client = await pool().connect();
  // fn may call commitNow() once it has sent its last statement: COMMIT follows it on the wire
  // (one round trip less). Its answer is still awaited before the transaction counts as done.
  let committing: Promise<unknown> | null = null;
  const commitNow = () => {
    if (committing) return;
    committing = client.query("COMMIT");
    committing.catch(() => undefined);
  };
  try {
    const keys = [...new Set(locks.map(lockKey))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    // The locks in one statement (a batch of updates holds several): taken in the array's order.
    const begin = Promise.all([
      client.query("BEGIN"),
      keys.length ? rows(TAKE_LOCKS, [keys.map(String)], client) : null,
    ]);
    // The connection pipelines (pool.ts): fn's first queries go right behind BEGIN's, the server
    // runs them in order, and if a lock failed they fail too (the block is aborted). fn is waited
    // for either way: nothing of it may run once the connection is released.
    const [begun, ran] = await Promise.allSettled([begin, fn(client, commitNow)]);
    if (begun.status === "rejected") throw begun.reason;
    if (ran.status === "rejected") throw ran.reason;
    const result = ran.value;
    await (committing ?? client.query("COMMIT"));
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/** Questions asked in the same turn of the event loop, answered together by `answer`. */
export function gathered<A, R>(answer: (asked: A[]) => Promise<R[]>): (arg: A) => Promise<R> {
  let waiting: { arg: A; resolve(r: R): void; reject(e: unknown): void }[] = [];
  const flush = () => {
    const calls = waiting;
    waiting = [];
    answer(calls.map((c) => c.arg)).then(
      (found) => calls.forEach((c, i) => c.resolve(found[i]!)),
      (e: unknown) => calls.forEach((c) => c.reject(e)),
    );
  };
  return (arg) =>
    new Promise<R>((resolve, reject) => {
      if (!waiting.length) setImmediate(flush);
      waiting.push({ arg, resolve, reject });
    });
}
