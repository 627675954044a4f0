import { threadId } from "node:worker_threads";
import { SLOT, threadMemory } from "../workers/thread-memory";

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
  // While another thread holds the lock, look again every millisecond. Atomics.waitAsync would
  // wake at once, but in Node 20 a pending wait neither keeps a thread's event loop alive nor
  // reliably wakes an idle one (nodejs/node#44729, #61941): a lock must not hang on that. Only a
  // contended lock polls: tracking batches that follow each other take their tickets at once.
  while (Atomics.load(memory, SLOT.writeLockServing) !== ticket) {
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  Atomics.store(memory, SLOT.writeLockHolder, threadId);
}

function release(memory: Int32Array): void {
  Atomics.store(memory, SLOT.writeLockHolder, -1);
  Atomics.add(memory, SLOT.writeLockServing, 1);
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
