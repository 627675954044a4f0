// The entry of the server's worker threads (routing: server/planner/pool.ts; tracking:
// server/tracking/thread.ts): plain JavaScript. A worker of the production server runs its entry
// as built (one module, .next/workers); otherwise (npm run dev, the unit tests) this registers tsx
// first, so that the worker runs the TypeScript sources (worker_threads ignore --import). The
// memory the process's threads share (server/workers/thread-memory.ts) is put in place before the
// worker's code runs.
const { workerData } = await import("node:worker_threads");
if (!workerData.built) {
  const { register } = await import("tsx/esm/api");
  register();
}
globalThis.threadMemory = workerData.threadMemory;
if (workerData.metricsPort) {
  const { serveThreadMetrics } = await import("../metrics/metrics.mjs");
  serveThreadMetrics(workerData.metricsPort, workerData.threadName);
}
await import(workerData.entry);
