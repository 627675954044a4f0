import { limitConnections, storage } from "../storage";
import { Sender } from "./deliver";

/**
 * The webhook sender's thread (./sender-thread.ts): polls the outbox and posts what is due, with
 * a database connection of its own. Its timer keeps the thread alive.
 */
limitConnections(2);
new Sender(storage().webhooks, undefined, { keepAlive: true }).start();
