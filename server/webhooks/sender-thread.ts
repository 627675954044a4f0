import path from "node:path";
import { pathToFileURL } from "node:url";
import { processOnce } from "../process-once";
import { forgetThread, startWorker } from "../workers/thread-memory";

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

function spawn(): void {
  const worker = startWorker(ENTRY);
  worker.unref();
  const id = worker.threadId;
  worker.on("error", (e) => console.error(`webhooks: the sender thread failed: ${e.message}`));
  worker.on("exit", (code) => {
    forgetThread(id);
    console.error(`webhooks: the sender thread exited (${code}); starting it again`);
    setTimeout(spawn, RESTART_MS).unref();
  });
}

/** Starts this process's sender thread (at server start). */
export function startWebhookSender(): void {
  processOnce("webhookSenderThread", () => spawn());
}
