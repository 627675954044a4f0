import { isMainThread, threadId } from "node:worker_threads";
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
  // While another thread holds the lock: a worker thread (tracking, the webhook sender) sleeps
  // in Atomics.wait and wakes the moment it is released (its event loop has nothing to do but
  // wait for the lock; no holder ever waits on a worker's event loop). Polling every millisecond
  // instead left the tracking thread waiting behind the sender's short turns (docs/performance.md). The server's thread may not block: it looks again every millisecond.
  // (Atomics.waitAsync would wake at once, but in Node 20 a pending wait neither keeps a
  // thread's event loop alive nor reliably wakes an idle one: nodejs/node#44729, #61941.) Only a
  // contended lock waits: tracking batches that follow each other take their tickets at once.
  for (;;) {
    const serving = Atomics.load(memory, SLOT.writeLockServing);
    if (serving === ticket) break;
    if (isMainThread) await new Promise((resolve) => setTimeout(resolve, 1));
    else Atomics.wait(memory, SLOT.writeLockServing, serving, 50);
  }
  Atomics.store(memory, SLOT.writeLockHolder, threadId);
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
