// @ts-check
/**
 * The log of every process and thread (docs/deployment.md#logs): JSON lines on standard output
 * with pino, one object per line; lines for people (pino-pretty) in `npm run dev` and on a
 * terminal. LOG_FORMAT=json or pretty decides instead. LOG_LEVEL: trace, debug, info (the
 * default), warn, error, fatal or silent.
 *
 * Plain JavaScript, so that the HTTP server in front of Next.js (scripts/serve.mjs) logs with the
 * same logger as the routes and the worker threads, which import it from TypeScript.
 *
 * A request's lines carry its id (`reqId`) by themselves: the server runs each request inside
 * `requestContext` (an AsyncLocalStorage shared by every bundle through globalThis), and the
 * logger adds the id of the request it is called within. Never log a key, a position or
 * metadata: ids and counts only.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { isMainThread, threadId } from "node:worker_threads";
import pino from "pino";
import pretty from "pino-pretty";

export const LOG_LEVELS = ["trace", "debug", "info", "warn", "error", "fatal", "silent"];

/**
 * What the server knows of the request being answered: its id, and the key it acts with once
 * the route has checked it (its id, never the key).
 * @typedef {{ reqId: string, keyId?: string }} RequestContext
 */

const shared = /** @type {{ requestContext?: AsyncLocalStorage<RequestContext>, logger?: pino.Logger }} */ (
  globalThis
);

/** @type {AsyncLocalStorage<RequestContext>} */
export const requestContext = (shared.requestContext ??= new AsyncLocalStorage());

/** @returns {pino.Logger} */
function make() {
  const wanted = (process.env.LOG_LEVEL ?? "").trim().toLowerCase();
  const level = LOG_LEVELS.includes(wanted) ? wanted : "info";
  const format = process.env.LOG_FORMAT;
  const readable =
    format === "pretty" ||
    (format !== "json" && (process.env.NODE_ENV === "development" || process.stdout.isTTY === true));
  /** @type {pino.LoggerOptions} */
  const options = {
    level,
    base: isMainThread ? { pid: process.pid } : { pid: process.pid, thread: threadId },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    mixin() {
      const store = requestContext.getStore();
      return store ? { reqId: store.reqId } : {};
    },
  };
  // Synchronous writes of whole lines: the threads of a process share standard output, and a line
  // written at once is never cut by another's; nothing waits in a buffer when the process dies.
  const destination = readable
    ? pretty({ sync: true, colorize: process.stdout.isTTY, ignore: "pid,thread,hostname" })
    : pino.destination({ dest: 1, sync: true });
  return pino(options, destination);
}

/** This thread's logger (each worker thread has its own, writing to the same output). */
export const log = (shared.logger ??= make());

/** Records who the request being answered acts as (a key's id, or `account:ID`) for its access line. */
export function noteCaller(/** @type {string} */ id) {
  const store = requestContext.getStore();
  if (store) store.keyId = id;
}
