import { type MessagePort, parentPort, workerData } from "node:worker_threads";
import type { RoadGraph } from "../routing/graph";
import { adoptRoadGraph, shareRoadGraphs } from "../routing/graph-bundle";
import type { Position } from "../geo/distance";
import {
  directionsThrough,
  isochroneAround,
  matchAlong,
  preloadRoadGraphs,
  routeMatrix,
  routeModes,
} from "../routing/engine";
import type { Mode } from "../routing/profiles";
import type { Departure } from "../routing/schema";
import type { AvoidMask } from "../routing/search";
import type { TracePoint } from "../routing/match";
import { preloadTransit, transitRoute } from "../transit/engine";

/**
 * A routing worker (server/planner/pool.ts): loads the imports' road graphs itself (the bundles
 * are read-only files) and answers route jobs, so searches never run on the event loop that
 * serves tracking.
 */

export type RouteJob =
  | {
      kind: "route";
      id: number;
      origin: Position;
      destination: Position;
      modes: Mode[];
      avoid: AvoidMask;
      paths: boolean;
    }
  | {
      kind: "matrix";
      id: number;
      origins: Position[];
      destinations: Position[];
      mode: Mode;
      avoid: AvoidMask;
    }
  | { kind: "transit"; id: number; origin: Position; destination: Position; departure: Departure }
  | { kind: "isochrone"; id: number; origin: Position; mode: Mode; minutes: number[]; avoid: AvoidMask }
  | {
      kind: "directions";
      id: number;
      points: Position[];
      mode: Mode;
      avoid: AvoidMask;
      language: string;
      alternatives: boolean;
    }
  | { kind: "match"; id: number; trace: TracePoint[]; mode: Mode };

/** A route asked on a port another thread holds (the tracking thread's trip ETAs), and its answer. */
interface PortAsk {
  id: number;
  origin: Position;
  destination: Position;
  mode: Mode;
}

function answerOn(port: MessagePort) {
  port.on("message", (ask: PortAsk) => {
    try {
      port.postMessage({ id: ask.id, results: routeModes(ask.origin, ask.destination, [ask.mode], 0) });
    } catch (e) {
      port.postMessage({ id: ask.id, error: e instanceof Error ? e.message : String(e) });
    }
  });
}

// One copy of each road graph for all the routing workers: those the others loaded
// come with the worker's data; one this worker loads goes to the others through the pool.
shareRoadGraphs((workerData as { graphs?: [string, RoadGraph][] }).graphs ?? [], (key, graph) =>
  parentPort!.postMessage({ kind: "graph", key, graph }),
);
preloadRoadGraphs();
preloadTransit();
parentPort!.postMessage({ kind: "ready" });
parentPort!.on(
  "message",
  (
    job: RouteJob | { kind: "port"; port: MessagePort } | { kind: "graph"; key: string; graph: RoadGraph },
  ) => {
    if (job.kind === "port") return answerOn(job.port);
    if (job.kind === "graph") return adoptRoadGraph(job.key, job.graph);
    try {
      const results =
        job.kind === "route"
          ? routeModes(job.origin, job.destination, job.modes, job.avoid, job.paths)
          : job.kind === "transit"
            ? transitRoute(job.origin, job.destination, job.departure)
            : job.kind === "isochrone"
              ? isochroneAround(job.origin, job.mode, job.minutes, job.avoid)
              : job.kind === "directions"
                ? directionsThrough(job.points, job.mode, job.avoid, job.language, job.alternatives)
                : job.kind === "match"
                  ? matchAlong(job.trace, job.mode)
                  : routeMatrix(job.origins, job.destinations, job.mode, job.avoid);
      parentPort!.postMessage({ id: job.id, results });
    } catch (e) {
      parentPort!.postMessage({ id: job.id, error: e instanceof Error ? e.message : String(e) });
    }
  },
);
