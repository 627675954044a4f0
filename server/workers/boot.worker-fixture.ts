import { parentPort } from "node:worker_threads";
import { metrics } from "../metrics/metrics.mjs";

/**
 * A worker for scripts/build.test.ts: counts seven updates in the metrics it imports, says which
 * module it runs as (the sources or the build), and stays until terminated (listening, as the
 * server's workers do), so that its metrics can be asked for.
 */
metrics.trackingUpdates.inc(7);
parentPort!.on("message", () => undefined);
parentPort!.postMessage(import.meta.url);
