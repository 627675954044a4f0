/**
 * One writer at a time in this process. SQLite allows a single writer anyway; the lock makes
 * that explicit so that a synchronous better-sqlite3 transaction (tracking) never waits, with the
 * event loop blocked, for a Prisma write that needs the event loop to finish.
 */
let tail: Promise<unknown> = Promise.resolve();

export function withWriteLock<T>(fn: () => T | Promise<T>): Promise<T> {
  const run = tail.then(fn, fn);
  tail = run.catch(() => undefined);
  return run;
}
