/**
 * Memory shared by the threads of one app process: the server's thread and its workers
 * (server/tracking/thread.ts, server/routing/pool.ts). The server's thread makes it; each worker
 * is handed it at start (server/worker-boot.mjs puts it on globalThis before the worker's code
 * runs). Each use has its own fixed slots below.
 */

/** Slots (32-bit integers) of the shared memory. */
export const SLOT = {
  /** the write lock's next ticket and the ticket being served (server/db/write-lock.ts) */
  writeLockNext: 0,
  writeLockServing: 1,
  /** the threadId of the thread holding the write lock, -1 when none */
  writeLockHolder: 2,
  /** how many changes of the geodata folder a thread has noticed (server/geodata/store.ts) */
  geodataChanges: 3,
} as const;

const SLOTS = 8;

const shared = globalThis as unknown as { threadMemory?: SharedArrayBuffer };

export function threadMemory(): Int32Array {
  if (!shared.threadMemory) {
    shared.threadMemory = new SharedArrayBuffer(SLOTS * Int32Array.BYTES_PER_ELEMENT);
    new Int32Array(shared.threadMemory)[SLOT.writeLockHolder] = -1;
  }
  return new Int32Array(shared.threadMemory);
}

/** What a new worker is handed (as workerData.threadMemory). */
export function threadMemoryForWorker(): SharedArrayBuffer {
  threadMemory();
  return shared.threadMemory!;
}

/**
 * After a worker thread has exited: frees the write lock if it died holding it, so the other
 * threads' writers do not wait forever (the lock is released by its holder otherwise).
 */
export function forgetThread(exitedThreadId: number): void {
  const memory = threadMemory();
  if (Atomics.compareExchange(memory, SLOT.writeLockHolder, exitedThreadId, -1) === exitedThreadId) {
    Atomics.add(memory, SLOT.writeLockServing, 1);
  }
}
