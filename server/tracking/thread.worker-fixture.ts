import { parentPort } from "node:worker_threads";
import type { TrackJob, TrackReply } from "./worker";

/**
 * A stand-in for the tracking worker (server/tracking/thread.test.ts): answers by deviceId,
 * refuses "refuse" as the real worker refuses an update, and dies on "die".
 */
parentPort!.on("message", (job: TrackJob) => {
  const { deviceId } = job.input;
  if (deviceId === "die") process.exit(3);
  const reply: TrackReply =
    deviceId === "refuse"
      ? { id: job.id, error: { code: "conflict", message: "deviceId: refused", param: "deviceId" } }
      : { id: job.id, answer: JSON.stringify({ deviceId }) };
  // Answers a moment later, so that updates sent together are held together.
  setTimeout(() => parentPort!.postMessage(reply), 20);
});
