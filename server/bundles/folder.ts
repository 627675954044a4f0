import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { databaseEngine, databaseFile } from "../config/database-url";
import { Bundle } from "./file";
import { SLOT, threadMemory } from "../workers/thread-memory";
import { log } from "../log/logger.mjs";

/**
 * The bundles the service answers from: every finished `<name>.sqlite` in the geodata folder
 * (GEODATA_DIR, default `geodata/` beside the SQLite database, or `data/geodata` with PostgreSQL:
 * bundles are read-only files on every app node, whichever engine holds the rest). The folder is
 * looked at again at most once a second (a listing and a stat of each file: microseconds); a new or replaced file is opened and a removed one closed, so a finished import
 * is picked up without a restart. Readers hold no state across requests: a connection closed
 * after a swap has no query in flight (better-sqlite3 is synchronous).
 */

let resolved: { configured: string | undefined; url: string | undefined; dir: string } | undefined;

export function geodataDir(): string {
  const configured = process.env.GEODATA_DIR;
  const url = process.env.DATABASE_URL;
  // Asked at every tracked update (the regions of its location): resolved again only when the
  // settings it comes from change (tests change them within a process).
  if (resolved && resolved.configured === configured && resolved.url === url) return resolved.dir;
  let dir: string;
  if (configured) dir = path.resolve(/*turbopackIgnore: true*/ process.cwd(), configured);
  else if (databaseEngine() === "postgresql")
    dir = path.resolve(/*turbopackIgnore: true*/ process.cwd(), "data/geodata");
  else dir = path.join(path.dirname(databaseFile()), "geodata");
  resolved = { configured, url, dir };
  return dir;
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
    /** the bundle files' names and stamps when this thread last looked */
    listing: string;
    list: Bundle[];
    /** files that could not be opened at the last look, with why */
    failed: Map<string, string>;
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

/** The finished bundle files in the folder, each with its stamp, by name. */
function listFolder(dir: string): Map<string, string> {
  let names: string[] = [];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith(".sqlite") && !n.startsWith("."));
  } catch {
    names = [];
  }
  const files = new Map<string, string>();
  for (const name of names.sort()) {
    const stamp = stampOf(path.join(dir, name));
    if (stamp) files.set(name, stamp);
  }
  return files;
}

/** Opens what is new or replaced and closes what is gone; false when a file could not be opened. */
function rescan(state: NonNullable<typeof shared.geodata>, files: Map<string, string>): boolean {
  let opened = true;
  const seen = new Set<string>();
  state.failed.clear();
  for (const [name, stamp] of files) {
    const full = path.join(state.dir, name);
    seen.add(name);
    const current = state.open.get(name);
    if (current?.stamp === stamp) continue;
    try {
      const file = new Bundle(full);
      file.meta(); // refuses a file that is not a finished bundle
      current?.file.close();
      state.open.set(name, { file, stamp });
    } catch (error) {
      state.failed.set(name, (error as Error).message);
      log.error({ file: full, reason: (error as Error).message }, "geodata: cannot open a bundle");
      opened = false;
    }
  }
  for (const [name, opened] of state.open) {
    if (!seen.has(name)) {
      opened.file.close();
      state.open.delete(name);
    }
  }
  // By name, whichever order they were opened in: answers do not depend on when a file came.
  state.list = [...state.open.keys()].sort().map((name) => state.open.get(name)!.file);
  return opened;
}

/** The open imports, newest folder state (checked at most once a second). */
export function imports(): Bundle[] {
  const dir = geodataDir();
  let state = shared.geodata;
  if (!state || state.dir !== dir) {
    for (const o of state?.open.values() ?? []) o.file.close();
    state = shared.geodata = {
      dir,
      open: new Map(),
      checkedAt: 0,
      seen: 0,
      listing: "",
      list: [],
      failed: new Map(),
    };
  }
  const now = Date.now();
  // The process's threads (the server's and the tracking thread) see an import at one moment:
  // the first to notice a change counts it in shared memory, and the others look at once.
  const memory = threadMemory();
  const changes = Atomics.load(memory, SLOT.geodataChanges);
  if (now - state.checkedAt >= RESCAN_MS || changes !== state.seen) {
    state.checkedAt = now;
    state.seen = changes;
    // Each file's stamp, not the folder's mtime, which some kernels stamp with a coarse clock
    // (two changes within a few milliseconds can leave it as it was after the first).
    const files = listFolder(dir);
    const listing = [...files].map(([name, stamp]) => `${name}=${stamp}`).join("\n");
    if (listing !== state.listing) {
      // A file that could not be opened is tried again at the next look.
      state.listing = rescan(state, files) ? listing : "";
      // Counted even on this thread's first look: another thread may have looked just before
      // the change and would otherwise not look again for a second (seen: the tracking thread
      // without an import the server's thread had just started answering from).
      state.seen = Atomics.add(memory, SLOT.geodataChanges, 1) + 1;
    }
  }
  return state.list;
}

/** The bundle files of the folder that could not be opened (at its latest look), with why. */
export function unopenedBundles(): { name: string; reason: string }[] {
  imports();
  return [...(shared.geodata?.failed ?? [])].map(([name, reason]) => ({ name, reason }));
}
