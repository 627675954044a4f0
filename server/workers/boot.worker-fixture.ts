import { parentPort } from "node:worker_threads";
import { metrics } from "../metrics/metrics.mjs";

/**
 * A worker for scripts/build.test.ts: counts seven updates in the metrics it imports, then says
 * which module it runs as (the sources or the build).
 */
metrics.trackingUpdates.inc(7);
parentPort!.postMessage(import.meta.url);
