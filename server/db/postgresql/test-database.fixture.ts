import { afterAll, beforeAll } from "vitest";

/**
 * A PostgreSQL store test file's own database, for the tests of the describe block that calls it:
 * made on the server TEST_POSTGRES_URL names (and migrated, unless `migrate` is false) before them,
 * and after them the process's pool closed and the database dropped. Hooks the caller registers
 * after this one run after the database is ready.
 */
export function usePostgresDatabase(adminUrl: string, options: { migrate?: boolean } = {}): void {
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const { createPostgresDatabase } = await import("../../../scripts/fresh-server");
    const db = await createPostgresDatabase(adminUrl);
    drop = db.drop;
    process.env.DATABASE_URL = db.url;
    if (options.migrate ?? true) await (await import("../../../scripts/migrate")).migrate();
  }, 60_000);
  afterAll(async () => {
    const { pool } = await import("./pool");
    await pool().end();
    await drop?.();
  });
}
