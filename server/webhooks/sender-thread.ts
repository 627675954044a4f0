import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Worker } from "node:worker_threads";
import { processOnce } from "../process-once";
import { forgetThread, startWorker } from "../workers/thread-memory";
import { log } from "../log/logger.mjs";

/**
 * The webhook sender on a thread of its own (docs/webhooks.md#delivery): signing, posting and
 * reading answers cost CPU for every request sent, and on the server's thread they would take it
 * from the requests being served; here they use what the other threads leave. The outbox is in
 * the database, so nothing is handed over: the thread reads what is due and records what
 * happened. A thread that dies is started again a second later (what it held is let go when its
 * holds run out).
 */

const ENTRY = pathToFileURL(path.join(process.cwd(), "server", "webhooks", "sender-worker.ts")).href;
const RESTART_MS = 1000;

const state = processOnce("webhookSenderThread", () => ({ worker: null as Worker | null, leaving: false }));

function spawn(): void {
  const worker = startWorker(ENTRY, "webhooks");
  worker.unref();
  state.worker = worker;
  const id = worker.threadId;
  worker.on("error", (err) => log.error({ err }, "webhooks: the sender thread failed"));
  worker.on("exit", (code) => {
    forgetThread(id);
    if (state.worker === worker) state.worker = null;
    if (state.leaving) return;
    log.error({ code }, "webhooks: the sender thread exited; starting it again");
    setTimeout(spawn, RESTART_MS).unref();
  });
}

/** Starts this process's sender thread (at server start). */
export function startWebhookSender(): void {
  if (!state.worker && !state.leaving) spawn();
}

/**
 * Makes the sender leave, for a process being stopped (docs/webhooks.md#delivery): what is in
 * flight is awaited for at most `ms` and recorded, and the rest is left to the other processes'
 * senders (or the next start's) at once. Resolves when it has left, or after `ms` and a little.
 */
export function stopWebhookSender(ms: number): Promise<void> {
  state.leaving = true;
  const worker = state.worker;
  if (!worker) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms + 500);
    worker.once("message", () => {
      clearTimeout(timer);
      resolve();
    });
    worker.postMessage({ leave: ms });
  });
}
