import { log } from "./log/logger.mjs";

/**
 * One value per process (per thread: a worker thread has a globalThis of its own), made on first
 * use. Next.js loads a module once per route bundle (and
 * once more for instrumentation.ts), so a module-level `let` holds one copy per bundle: the
 * embedded datasets were built twice, and the first request of each bundle paid for it. These
 * live on globalThis, under names of their own.
 */
const store = ((globalThis as { __processOnce?: Map<string, unknown> }).__processOnce ??= new Map());

/** `label`: a dataset worth a line in the server's log when it is loaded (with how long it took). */
export function processOnce<T>(name: string, make: () => T, label?: string): T {
  if (!store.has(name)) {
    const started = performance.now();
    store.set(name, make());
    const ms = Math.round(performance.now() - started);
    if (label) log.info({ dataset: label, ms }, `Loaded ${label} in ${ms} ms`);
  }
  return store.get(name) as T;
}

/** Drops a value so that the next processOnce(name) makes it again (benchmarks, tests). */
export function forgetProcessOnce(name: string): void {
  store.delete(name);
}
