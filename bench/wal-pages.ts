import { readFileSync } from "node:fs";
import { databaseEngine, databaseFile } from "../server/config/database-url";

/**
 * What `run` writes to SQLite's write-ahead log, by table and index: the log is emptied before
 * (a checkpoint), left to grow while `run` goes (no automatic checkpoint on this process's
 * connection), and its frames are then counted by the b-tree that owns each page (`dbstat`).
 * A frame is a page written by a commit; a page written by several commits counts once per
 * commit. What a tracked update costs the disk, and which index to look at first. On PostgreSQL
 * `run` goes as it is, and the answer is null.
 */
export async function walPagesOf(run: () => Promise<void>): Promise<Map<string, number> | null> {
  if (databaseEngine() !== "sqlite") {
    await run();
    return null;
  }
  const { connection } = await import("../server/db/sqlite/connection");
  const db = connection();
  const autocheckpoint = db.pragma("wal_autocheckpoint", { simple: true }) as number;
  db.pragma("wal_checkpoint(TRUNCATE)");
  db.pragma("wal_autocheckpoint = 0");
  try {
    await run();
    const wal = readFileSync(`${databaseFile()}-wal`);
    const pageSize = wal.readUInt32BE(8);
    const owner = new Map<number, string>();
    for (const r of db.prepare(`SELECT "name", "pageno" FROM dbstat`).all() as {
      name: string;
      pageno: number;
    }[])
      owner.set(r.pageno, r.name);
    const frames = new Map<string, number>();
    for (let at = 32; at + 24 + pageSize <= wal.length; at += 24 + pageSize) {
      const name = owner.get(wal.readUInt32BE(at)) ?? "(free or new pages)";
      frames.set(name, (frames.get(name) ?? 0) + 1);
    }
    return new Map([...frames].sort((a, b) => b[1] - a[1]));
  } finally {
    db.pragma(`wal_autocheckpoint = ${autocheckpoint}`);
  }
}

/** "35.0 pages per update: UserGeofence_geofenceSeq_idx 9.8, Event 3.6, …" (the `top` largest). */
export function walPagesText(frames: Map<string, number>, updates: number, top = 8): string {
  const per = (n: number) => (n / updates).toFixed(1);
  const total = [...frames.values()].reduce((a, b) => a + b, 0);
  const largest = [...frames].slice(0, top).map(([name, n]) => `${name} ${per(n)}`);
  return `${per(total)} WAL pages per update (${largest.join(", ")}${frames.size > top ? ", …" : ""})`;
}
