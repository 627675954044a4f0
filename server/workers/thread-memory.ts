import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Worker } from "node:worker_threads";
import { threadMetricsPort } from "../metrics/metrics.mjs";

/**
 * The worker threads of one app process (routing: server/planner/pool.ts; tracking:
 * server/tracking/thread.ts) and the memory its threads share. The server's thread makes the
 * memory; each worker is handed it at start (server/workers/worker-boot.mjs puts it on globalThis before
 * the worker's code runs). Each use has its own fixed slots below.
 */

/** Slots (32-bit integers) of the shared memory. */
export const SLOT = {
  /** the write lock's next ticket and the ticket being served (server/db/write-lock.ts) */
  writeLockNext: 0,
  writeLockServing: 1,
  /** the threadId of the thread holding the write lock, -1 when none */
  writeLockHolder: 2,
  /** how many changes of the geodata folder a thread has noticed (server/bundles/folder.ts) */
  geodataChanges: 3,
  /** 64 random bits naming this app process (processKey) */
  processKey: 4,
  /**
   * /v1/track requests inside their route on the server's thread, and the updates the tracking
   * thread has taken and not yet answered (updatesOnTheWay)
   */
  trackRequests: 6,
  trackHeld: 7,
  /** when the tracking thread and the webhook sender's thread last beat (beat(), beatAge()) */
  trackingBeat: 8,
  senderBeat: 9,
} as const;

const SLOTS = 10;

const shared = globalThis as unknown as {
  threadMemory?: SharedArrayBuffer;
  threadMemoryView?: Int32Array;
  processKey?: string;
};

export function threadMemory(): Int32Array {
  if (!shared.threadMemoryView) {
    if (!shared.threadMemory) {
      shared.threadMemory = new SharedArrayBuffer(SLOTS * Int32Array.BYTES_PER_ELEMENT);
      const view = new Int32Array(shared.threadMemory);
      view[SLOT.writeLockHolder] = -1;
      crypto.getRandomValues(view.subarray(SLOT.processKey, SLOT.processKey + 2));
    }
    shared.threadMemoryView = new Int32Array(shared.threadMemory);
  }
  return shared.threadMemoryView;
}

/**
 * This app process's name, the same on each of its threads and new at each start (a process
 * restarted after kill -9 is another one): what the webhook outbox rows its tracking writes are
 * marked with, so that its own sender sends them (server/webhooks/deliver.ts).
 */
export function processKey(): string {
  if (!shared.processKey) {
    const view = threadMemory();
    shared.processKey = [view[SLOT.processKey]!, view[SLOT.processKey + 1]!]
      .map((n) => (n >>> 0).toString(16).padStart(8, "0"))
      .join("");
  }
  return shared.processKey;
}

/**
 * Starts a worker thread running `entry` (a file: URL of a TypeScript module of the sources), with
 * the shared memory, a port its metrics are asked on (server/metrics/metrics.mjs; `name` labels
 * the thread there) and `data` in its workerData. The production server runs the entry as built
 * (WORKER_BUNDLES, set by scripts/serve.mjs: scripts/build.ts bundles each worker entry); anything
 * else, or an entry not built, runs from the sources through tsx as `npm run dev` does.
 */
export function startWorker(entry: string, name: string, data: Record<string, unknown> = {}): Worker {
  // Taken from Node at run time: the bundler would otherwise try to bundle the worker's entry
  // (tsx, esbuild's binary…).
  const { Worker } = process.getBuiltinModule("node:worker_threads") as typeof import("node:worker_threads");
  const bundles = process.env.WORKER_BUNDLES;
  const built =
    bundles &&
    path.join(bundles, path.relative(process.cwd(), fileURLToPath(entry)).replace(/\.ts$/, ".mjs"));
  const runBuilt = !!built && existsSync(built);
  const metricsPort = threadMetricsPort();
  return new Worker(path.join(process.cwd(), "server", "workers", "worker-boot.mjs"), {
    workerData: {
      ...data,
      entry: runBuilt ? pathToFileURL(built).href : entry,
      built: runBuilt,
      threadName: name,
      threadMemory: threadMemory().buffer,
      metricsPort,
    },
    transferList: [metricsPort],
  });
}

/**
 * After a worker thread has exited: frees the write lock if it died holding it, so the other
 * threads' writers do not wait forever (the lock is released by its holder otherwise).
 */
export function forgetThread(exitedThreadId: number): void {
  const memory = threadMemory();
  if (Atomics.compareExchange(memory, SLOT.writeLockHolder, exitedThreadId, -1) === exitedThreadId) {
    Atomics.add(memory, SLOT.writeLockServing, 1);
    Atomics.notify(memory, SLOT.writeLockServing);
  }
}

/**
 * About how many /v1/track updates are on their way to the tracking thread: their request is in
 * its route (being read and checked, or posted and not yet taken), as the tracking store sees it
 * when it decides whether a batch may wait for more (server/db/sqlite/gather.ts). An update
 * answered whose request has not yet left its route still counts: the estimate errs high by
 * those, for the moment it takes the server's thread to see their answers.
 */
export function updatesOnTheWay(): number {
  const memory = threadMemory();
  return Math.max(0, Atomics.load(memory, SLOT.trackRequests) - Atomics.load(memory, SLOT.trackHeld));
}

/** Seconds on the beat slots' clock: since an epoch of its own, so that they fit 32 bits for ages. */
const BEAT_EPOCH_S = 1_700_000_000;
const beatNow = () => Math.floor(Date.now() / 1000) - BEAT_EPOCH_S;
const BEAT_MS = 1000;

/**
 * Makes this thread beat in `slot` every second while its event loop turns, for the readiness
 * probe (beatAge): a thread that has exited, or whose loop is stuck, stops beating. The timer
 * does not keep the thread alive.
 */
export function beat(slot: typeof SLOT.trackingBeat | typeof SLOT.senderBeat): void {
  const memory = threadMemory();
  Atomics.store(memory, slot, beatNow());
  setInterval(() => Atomics.store(memory, slot, beatNow()), BEAT_MS).unref();
}

/** Seconds since the thread of `slot` last beat; null when it never has (not started yet). */
export function beatAge(slot: typeof SLOT.trackingBeat | typeof SLOT.senderBeat): number | null {
  const last = Atomics.load(threadMemory(), slot);
  return last === 0 ? null : beatNow() - last;
}
