import Database from "better-sqlite3";
import pg from "pg";
import { inject } from "vitest";

/**
 * One number straight from the test server's database, to check what the API cannot show (that
 * a deleted user's history is gone, that nothing was written). Works on either engine: SQL is
 * written with `?` placeholders and quoted identifiers, which both understand once numbered.
 */
export async function dbNumber(sql: string, ...args: unknown[]): Promise<number> {
  return numberFrom(inject("databaseUrl"), sql, ...args);
}

/**
 * How many users the test server's database holds at this position: where a request that must
 * store no user was made (a count of all users would see other files' come and go meanwhile).
 */
export function dbUsersAt(at: { lat: number; lng: number }): Promise<number> {
  return dbNumber(
    `SELECT COUNT(*) AS n FROM "User" WHERE "latitude" = ? AND "longitude" = ?`,
    at.lat,
    at.lng,
  );
}

export async function numberFrom(databaseUrl: string, sql: string, ...args: unknown[]): Promise<number> {
  const [first] = await rowsFrom<{ n: unknown }>(databaseUrl, sql, ...args);
  return Number(first?.n ?? Number.NaN);
}

/** Rows straight from the test server's database (same SQL rules as dbNumber). */
export async function dbRows<T>(sql: string, ...args: unknown[]): Promise<T[]> {
  return rowsFrom<T>(inject("databaseUrl"), sql, ...args);
}

export async function rowsFrom<T>(databaseUrl: string, sql: string, ...args: unknown[]): Promise<T[]> {
  if (/^postgres(ql)?:/.test(databaseUrl)) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      let i = 0;
      const result = await client.query(
        sql.replace(/\?/g, () => `$${++i}`),
        args,
      );
      return result.rows as T[];
    } finally {
      await client.end();
    }
  }
  const db = new Database(databaseUrl.replace(/^file:/, ""), { readonly: true, fileMustExist: true });
  try {
    return db.prepare(sql).all(...args) as T[];
  } finally {
    db.close();
  }
}

/**
 * Runs one statement on the test server's database, as another host's process would (a change
 * the server's own code did not make).
 */
export async function dbRun(sql: string, ...args: unknown[]): Promise<void> {
  const databaseUrl = inject("databaseUrl");
  if (/^postgres(ql)?:/.test(databaseUrl)) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      let i = 0;
      await client.query(
        sql.replace(/\?/g, () => `$${++i}`),
        args,
      );
    } finally {
      await client.end();
    }
    return;
  }
  const db = new Database(databaseUrl.replace(/^file:/, ""), { fileMustExist: true });
  try {
    db.pragma("busy_timeout = 5000");
    db.prepare(sql).run(...args);
  } finally {
    db.close();
  }
}

/** A time as the test server's database stores it (SQLite keeps text; PostgreSQL takes a Date). */
export const dbDate = (d: Date): unknown =>
  /^postgres(ql)?:/.test(inject("databaseUrl")) ? d : d.toISOString().replace("Z", "+00:00");
