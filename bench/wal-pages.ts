import { databaseEngine } from "../server/config/database-url";

/**
 * What `run` writes to SQLite's write-ahead log, by table and index
 * (server/db/sqlite/wal-pages.ts). On PostgreSQL `run` goes as it is, and the answer is null.
 */
export async function walPagesOf(run: () => Promise<void>): Promise<Map<string, number> | null> {
  if (databaseEngine() !== "sqlite") {
    await run();
    return null;
  }
  const { walPagesOf: sqliteWalPagesOf } = await import("../server/db/sqlite/wal-pages");
  return sqliteWalPagesOf(run);
}

/** "24.5 WAL pages per update (UserGeofence_geofenceSeq_idx 6.8, User 2.6, …)": the `top` largest. */
export function walPagesText(frames: Map<string, number>, updates: number, top = 8): string {
  const per = (n: number) => (n / updates).toFixed(1);
  const total = [...frames.values()].reduce((a, b) => a + b, 0);
  const largest = [...frames].slice(0, top).map(([name, n]) => `${name} ${per(n)}`);
  return `${per(total)} WAL pages per update (${largest.join(", ")}${frames.size > top ? ", …" : ""})`;
}
