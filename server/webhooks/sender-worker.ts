import { parentPort } from "node:worker_threads";
import { limitConnections, storage } from "../storage";
import { Sender } from "./deliver";
import { SLOT, beat } from "../workers/thread-memory";
import { log } from "../log/logger.mjs";

/**
 * The webhook sender's thread (./sender-thread.ts): polls the outbox and posts what is due, with
 * a database connection of its own. Its timer keeps the thread alive. Asked to leave (the process
 * is being stopped), it leaves (Sender.leave) and says so.
 */
limitConnections(2);
const sender = new Sender(storage().webhooks, undefined, { keepAlive: true });
sender.start();
beat(SLOT.senderBeat);
parentPort?.on("message", (m: { leave?: number }) => {
  if (m.leave === undefined) return;
  void sender
    .leave(m.leave)
    .catch((err: unknown) => log.error({ err }, "webhooks: leaving failed"))
    .finally(() => parentPort!.postMessage({ left: true }));
});
