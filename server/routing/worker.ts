import { parentPort } from "node:worker_threads";
import type { Position } from "../geo/distance";
import { preloadRoadGraphs, routeModes } from "./engine";
import type { Mode } from "./profiles";
import type { AvoidMask } from "./search";

/**
 * A routing worker (server/routing/pool.ts): loads the imports' road graphs itself (the bundles
 * are read-only files) and answers route jobs, so searches never run on the event loop that
 * serves tracking.
 */

export interface RouteJob {
  id: number;
  origin: Position;
  destination: Position;
  modes: Mode[];
  avoid: AvoidMask;
}

preloadRoadGraphs();
parentPort!.on("message", (job: RouteJob) => {
  try {
    parentPort!.postMessage({
      id: job.id,
      results: routeModes(job.origin, job.destination, job.modes, job.avoid),
    });
  } catch (e) {
    parentPort!.postMessage({ id: job.id, error: e instanceof Error ? e.message : String(e) });
  }
});
