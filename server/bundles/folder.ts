import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { databaseEngine, databaseFile } from "../config/database-url";
import { Bundle } from "./file";
import { SLOT, threadMemory } from "../workers/thread-memory";

/**
 * The bundles the service answers from: every finished `<name>.sqlite` in the geodata folder
 * (GEODATA_DIR, default `geodata/` beside the SQLite database, or `data/geodata` with PostgreSQL:
 * bundles are read-only files on every app node, whichever engine holds the rest). The folder is looked at again at most
 * once a second; a new or replaced file is opened and a removed one closed, so a finished import
 * is picked up without a restart. Readers hold no state across requests: a connection closed
 * after a swap has no query in flight (better-sqlite3 is synchronous).
 */

export function geodataDir(): string {
  const configured = process.env.GEODATA_DIR;
  if (configured) return path.resolve(/*turbopackIgnore: true*/ process.cwd(), configured);
  if (databaseEngine() === "postgresql") {
    return path.resolve(/*turbopackIgnore: true*/ process.cwd(), "data/geodata");
  }
  return path.join(path.dirname(databaseFile()), "geodata");
}

interface Opened {
  file: Bundle;
  /** inode and mtime: a rename over the file changes them */
  stamp: string;
}

const RESCAN_MS = 1000;
const shared = globalThis as unknown as {
  geodata?: {
    dir: string;
    open: Map<string, Opened>;
    checkedAt: number;
    /** the process's count of folder changes seen, when this thread last looked */
    seen: number;
    dirStamp: string;
    list: Bundle[];
  };
};

function stampOf(file: string): string | null {
  try {
    const s = statSync(file);
    return `${s.ino}:${s.mtimeMs}:${s.size}`;
  } catch {
    return null;
  }
}

function rescan(state: NonNullable<typeof shared.geodata>) {
  let names: string[] = [];
  try {
    names = readdirSync(state.dir).filter((n) => n.endsWith(".sqlite") && !n.startsWith("."));
  } catch {
    names = [];
  }
  const seen = new Set<string>();
  for (const name of names.sort()) {
    const full = path.join(state.dir, name);
    const stamp = stampOf(full);
    if (!stamp) continue;
    seen.add(name);
    const current = state.open.get(name);
    if (current?.stamp === stamp) continue;
    try {
      const file = new Bundle(full);
      file.meta(); // refuses a file that is not a finished bundle
      current?.file.close();
      state.open.set(name, { file, stamp });
    } catch (error) {
      console.error(`geodata: cannot open ${full}: ${(error as Error).message}`);
    }
  }
  for (const [name, opened] of state.open) {
    if (!seen.has(name)) {
      opened.file.close();
      state.open.delete(name);
    }
  }
  state.list = [...state.open.values()].map((o) => o.file);
}

/** The open imports, newest folder state (checked at most once a second). */
export function imports(): Bundle[] {
  const dir = geodataDir();
  let state = shared.geodata;
  if (!state || state.dir !== dir) {
    for (const o of state?.open.values() ?? []) o.file.close();
    state = shared.geodata = { dir, open: new Map(), checkedAt: 0, seen: 0, dirStamp: "", list: [] };
  }
  const now = Date.now();
  // The process's threads (the server's and the tracking thread) see an import at one moment:
  // the first to notice a change counts it in shared memory, and the others look at once.
  const memory = threadMemory();
  const changes = Atomics.load(memory, SLOT.geodataChanges);
  if (now - state.checkedAt >= RESCAN_MS || changes !== state.seen) {
    state.checkedAt = now;
    state.seen = changes;
    const dirStamp = stampOf(dir) ?? "";
    // A rename into the folder changes its mtime; a file rewritten in place (not by our import)
    // is caught by comparing each file's stamp, which rescan does when the folder changed.
    if (dirStamp !== state.dirStamp) {
      const first = state.dirStamp === "";
      state.dirStamp = dirStamp;
      rescan(state);
      if (!first) state.seen = Atomics.add(memory, SLOT.geodataChanges, 1) + 1;
    }
  }
  return state.list;
}
