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

/** Runs `fn` in a transaction on one connection of the pool. */
export async function inTransaction<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool().connect();
  try {
    await client.query("BEGIN");
    const result = await fn(client);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
