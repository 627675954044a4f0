import { readFileSync } from "node:fs";
import { databaseFile } from "../../config/database-url";
import { connection } from "./connection";

/**
 * What `run` writes to the write-ahead log, by table and index (the number of frames of each):
 * the log is emptied before (a checkpoint), left to grow while `run` goes (no automatic
 * checkpoint on this process's connection), and its frames are then counted by the b-tree that
 * owns each page (`dbstat`). A frame is a page written by a commit; a page written by several
 * commits counts once per commit. Largest first. For tests and benchmarks: what a write costs the
 * disk, and which index it touches.
 */
export async function walPagesOf(run: () => Promise<void> | void): Promise<Map<string, number>> {
  const db = connection();
  const autocheckpoint = db.pragma("wal_autocheckpoint", { simple: true }) as number;
  db.pragma("wal_checkpoint(TRUNCATE)");
  db.pragma("wal_autocheckpoint = 0");
  try {
    await run();
    const wal = readFileSync(`${databaseFile()}-wal`);
    const pageSize = wal.readUInt32BE(8);
    const owner = new Map<number, string>();
    const pages = db.prepare(`SELECT "name", "pageno" FROM dbstat`).all() as {
      name: string;
      pageno: number;
    }[];
    for (const p of pages) owner.set(p.pageno, p.name);
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
