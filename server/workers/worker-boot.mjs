// The entry of the server's worker threads (routing: server/planner/pool.ts; tracking:
// server/tracking/thread.ts): plain JavaScript that registers tsx, so a worker runs the
// TypeScript sources as `npm start` does (worker_threads ignore --import). The memory the
// process's threads share (server/workers/thread-memory.ts) is put in place before the worker's code runs.
import { register } from "tsx/esm/api";

register();
const { workerData } = await import("node:worker_threads");
globalThis.threadMemory = workerData.threadMemory;
if (workerData.metricsPort) {
  const { serveThreadMetrics } = await import("../metrics/metrics.mjs");
  serveThreadMetrics(workerData.metricsPort, workerData.threadName);
}
await import(workerData.entry);
