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

export async function numberFrom(databaseUrl: string, sql: string, ...args: unknown[]): Promise<number> {
  if (/^postgres(ql)?:/.test(databaseUrl)) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      let i = 0;
      const result = await client.query(
        sql.replace(/\?/g, () => `$${++i}`),
        args,
      );
      return Number((result.rows[0] as { n: unknown } | undefined)?.n ?? Number.NaN);
    } finally {
      await client.end();
    }
  }
  const db = new Database(databaseUrl.replace(/^file:/, ""), { readonly: true, fileMustExist: true });
  try {
    return Number((db.prepare(sql).get(...args) as { n: unknown } | undefined)?.n ?? Number.NaN);
  } finally {
    db.close();
  }
}
