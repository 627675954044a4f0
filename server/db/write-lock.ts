/**
 * One writer at a time in this process. SQLite allows a single writer anyway; the lock makes
 * that explicit so that a synchronous better-sqlite3 transaction (tracking) never waits, with the
 * event loop blocked, for a Prisma write that needs the event loop to finish.
 *
 * The queue lives on globalThis: a lock is only a lock if every route bundle shares it.
 */
const shared = globalThis as unknown as { writeLockTail?: Promise<unknown> };

export function withWriteLock<T>(fn: () => T | Promise<T>): Promise<T> {
  const run = (shared.writeLockTail ?? Promise.resolve()).then(fn, fn);
  shared.writeLockTail = run.catch(() => undefined);
  return run;
}
