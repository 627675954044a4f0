import { threadId } from "node:worker_threads";
import { SLOT, threadMemory } from "../thread-memory";

/**
 * One writer at a time in this process, across its threads (the server's and the tracking
 * thread). SQLite allows a single writer anyway; the lock makes that explicit and fair:
 * - a synchronous better-sqlite3 transaction never waits, with its event loop blocked, for a
 *   Prisma write that needs that event loop to finish;
 * - writers of both threads take turns in the order they asked (a ticket lock in shared memory),
 *   so a write of the server's thread is not starved by tracking batches that follow each other
 *   back to back, as it would be waiting in SQLite's busy handler.
 *
 * Within a thread, writers queue on a promise chain (on globalThis: a lock is only a lock if
 * every route bundle shares it), and the one at its head takes a ticket.
 */
const shared = globalThis as unknown as { writeLockTail?: Promise<unknown> };

async function acquire(memory: Int32Array): Promise<void> {
  const ticket = Atomics.add(memory, SLOT.writeLockNext, 1);
  for (;;) {
    const serving = Atomics.load(memory, SLOT.writeLockServing);
    if (serving === ticket) {
      Atomics.store(memory, SLOT.writeLockHolder, threadId);
      return;
    }
    const wait = Atomics.waitAsync(memory, SLOT.writeLockServing, serving);
    if (wait.async) await wait.value;
  }
}

function release(memory: Int32Array): void {
  Atomics.store(memory, SLOT.writeLockHolder, -1);
  Atomics.add(memory, SLOT.writeLockServing, 1);
  Atomics.notify(memory, SLOT.writeLockServing);
}

export function withWriteLock<T>(fn: () => T | Promise<T>): Promise<T> {
  const locked = async () => {
    const memory = threadMemory();
    await acquire(memory);
    try {
      return await fn();
    } finally {
      release(memory);
    }
  };
  const run = (shared.writeLockTail ?? Promise.resolve()).then(locked, locked);
  shared.writeLockTail = run.catch(() => undefined);
  return run;
}
