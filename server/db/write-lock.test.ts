import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { forgetThread, startWorker } from "../workers/thread-memory";
import { withWriteLock } from "./write-lock";

/** The process's write lock across threads (the server's thread and the tracking thread). */

const entry = pathToFileURL(path.resolve(import.meta.dirname, "write-lock.worker-fixture.ts")).href;

function start(mode: "take-turns" | "die-holding", trace: SharedArrayBuffer, rounds = 0) {
  return startWorker(entry, "test", { mode, rounds, trace });
}
const message = (w: Worker) =>
  new Promise((resolve, reject) => (w.once("message", resolve), w.once("error", reject)));

describe("the write lock across threads", () => {
  it("lets one holder in at a time, whichever thread asks, and every writer gets its turn", async () => {
    // [holders inside now, times two were inside at once]
    const trace = new SharedArrayBuffer(8);
    const log = new Int32Array(trace);
    const worker = start("take-turns", trace, 40);
    expect(await message(worker)).toBe("ready");
    const done = message(worker);
    worker.postMessage("go");
    let mine = 0;
    await Promise.all(
      Array.from({ length: 40 }, () =>
        withWriteLock(async () => {
          if (Atomics.add(log, 0, 1) !== 0) Atomics.add(log, 1, 1);
          await new Promise((r) => setTimeout(r, 1));
          Atomics.sub(log, 0, 1);
          mine++;
        }),
      ),
    );
    expect(await done).toBe("done");
    await worker.terminate();
    expect(mine).toBe(40);
    expect(Atomics.load(log, 1)).toBe(0);
  });

  it("is freed when the thread holding it ends", async () => {
    const worker = start("die-holding", new SharedArrayBuffer(8));
    const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
    expect(await message(worker)).toBe("holding");
    const id = worker.threadId;
    let ran = false;
    const waiting = withWriteLock(() => {
      ran = true;
    });
    await exited;
    expect(ran).toBe(false);
    forgetThread(id);
    await waiting;
    expect(ran).toBe(true);
  });
});
