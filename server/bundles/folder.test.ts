import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Worker } from "node:worker_threads";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SLOT, startWorker, threadMemory } from "../workers/thread-memory";
import { imports } from "./folder";
import { writeBundle } from "./swap";

let dir: string;
const names = () => imports().map((b) => path.basename(b.file));
const bundle = (name: string) => writeBundle({ dir, name, layers: [] }, async () => undefined);

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "geodata-folder-"));
  process.env.GEODATA_DIR = dir;
});
afterAll(() => {
  delete process.env.GEODATA_DIR;
  rmSync(dir, { recursive: true, force: true });
});

const fixture = pathToFileURL(path.resolve(import.meta.dirname, "folder.worker-fixture.ts")).href;
const reply = (w: Worker) =>
  new Promise<unknown>((resolve, reject) => (w.once("message", resolve), w.once("error", reject)));

describe("the geodata folder", () => {
  it("shows a new bundle to every thread as soon as one thread has seen it", async () => {
    await bundle("zero");
    const other = startWorker(fixture, "test"); // its process.env is a copy of this one: the same folder
    try {
      expect(await reply(other)).toBe("ready");
      // The other thread (the tracking thread) looks, then an import lands.
      other.postMessage("look");
      expect(await reply(other)).toEqual(["zero.sqlite"]);
      await bundle("landed");
      // This thread (the server's) looks for the first time and sees it: the other sees it at
      // once, not a second later.
      expect(names()).toEqual(["landed.sqlite", "zero.sqlite"]);
      other.postMessage("look");
      expect(await reply(other)).toEqual(["landed.sqlite", "zero.sqlite"]);
    } finally {
      await other.terminate();
      rmSync(path.join(dir, "landed.sqlite"));
      rmSync(path.join(dir, "zero.sqlite"));
      Atomics.add(threadMemory(), SLOT.geodataChanges, 1);
    }
  });

  it("sees a bundle added while the folder's mtime stayed as it was", async () => {
    await bundle("first");
    expect(names()).toEqual(["first.sqlite"]);
    // The kernel stamps files with a coarse clock: a second change a few milliseconds after the
    // first can leave the folder's mtime unchanged. Made certain here by setting it back.
    const { mtimeNs } = statSync(dir, { bigint: true });
    await bundle("second");
    const ns = String(mtimeNs).padStart(10, "0");
    execFileSync("touch", ["-m", "-d", `@${ns.slice(0, -9)}.${ns.slice(-9)}`, dir]);
    expect(statSync(dir, { bigint: true }).mtimeNs).toBe(mtimeNs);
    // Another thread noticed a change: this one looks at once.
    Atomics.add(threadMemory(), SLOT.geodataChanges, 1);
    expect(names()).toEqual(["first.sqlite", "second.sqlite"]);
  });

  it("closes a bundle removed from the folder", async () => {
    await bundle("third");
    Atomics.add(threadMemory(), SLOT.geodataChanges, 1);
    expect(names()).toContain("third.sqlite");
    rmSync(path.join(dir, "third.sqlite"));
    Atomics.add(threadMemory(), SLOT.geodataChanges, 1);
    expect(names()).not.toContain("third.sqlite");
  });
});
