import os from "node:os";
import { env } from "../config/env";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { MessageChannel, type MessagePort, type Worker } from "node:worker_threads";
import type { Position } from "../geo/distance";
import { processOnce } from "../process-once";
import { startWorker } from "../workers/thread-memory";
import type { Cell, DirectionsResult, IsochroneResult, MatchResult, RouteResult } from "../routing/engine";
import type { RoadGraph } from "../routing/graph";
import { isCurrent } from "../routing/graph-bundle";
import type { TracePoint } from "../routing/match";
import type { Mode } from "../routing/profiles";
import type { Departure } from "../routing/schema";
import type { AvoidMask } from "../routing/search";
import type { TransitResult } from "../transit/engine";
import type { RouteJob } from "./worker";

/**
 * Routing off the event loop (docs/routing.md#workers): a few worker threads, each with the road
 * graphs loaded, take route jobs; the server's own thread only posts them and awaits the answer,
 * so a long search or a large matrix never stalls tracking. ROUTING_WORKERS sets how many
 * (default: one less than the cores, at least one, at most four).
 */

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

interface Slot {
  worker: Worker;
  busy: number;
}

interface Pending {
  resolve: (results: unknown) => void;
  reject: (error: Error) => void;
  slot: Slot;
}

function size(): number {
  const configured = env().ROUTING_WORKERS;
  if (configured !== undefined) return configured;
  return Math.max(1, Math.min(4, os.availableParallelism() - 1));
}

/** What a routing worker says besides answers: a graph it loaded (to share), or that it has loaded all. */
type WorkerNews = { kind: "graph"; key: string; graph: RoadGraph } | { kind: "ready" };

class RoutingPool {
  private slots: Slot[] = [];
  private pending = new Map<number, Pending>();
  private nextId = 1;
  /**
   * The road graphs the workers loaded, in shared memory, by import: a new worker is
   * handed them all and loads none itself. Workers after the first start once it has loaded the
   * imports, so that they adopt its graphs instead of each loading its own at the same time.
   */
  private graphs = new Map<string, RoadGraph>();
  private firstReady = false;

  constructor(private count: number) {}

  private hear(from: Slot, m: WorkerNews) {
    if (m.kind === "ready") {
      if (!this.firstReady) {
        this.firstReady = true;
        while (this.slots.length < this.count && this.started) this.spawn();
      }
      return;
    }
    // A graph of an import replaced since is not passed on; those of a file's earlier imports go.
    if (!isCurrent(m.key) || this.graphs.has(m.key)) return;
    const file = m.key.split("\0")[0];
    for (const k of this.graphs.keys()) if (k.split("\0")[0] === file) this.graphs.delete(k);
    this.graphs.set(m.key, m.graph);
    for (const s of this.slots) if (s !== from) s.worker.postMessage(m);
  }

  private started = false;

  private spawn(): Slot {
    const worker = startWorker(
      pathToFileURL(path.join(process.cwd(), "server", "planner", "worker.ts")).href,
      "routing",
      { graphs: [...this.graphs] },
    );
    const slot: Slot = { worker, busy: 0 };
    worker.unref();
    worker.on("message", (m: { id: number; results?: unknown; error?: string } | WorkerNews) => {
      if ("kind" in m) return this.hear(slot, m);
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      slot.busy--;
      if (m.error !== undefined) p.reject(new Error(m.error));
      else p.resolve(m.results!);
    });
    const fail = (error: Error) => {
      // The worker is gone: its jobs fail, and a new one takes its place for the next jobs.
      this.slots = this.slots.filter((s) => s !== slot);
      for (const [id, p] of this.pending) {
        if (p.slot !== slot) continue;
        this.pending.delete(id);
        p.reject(error);
      }
    };
    worker.on("error", fail);
    worker.on("exit", (code) => fail(new Error(`routing worker exited (${code})`)));
    this.slots.push(slot);
    return slot;
  }

  /** The least busy worker, starting one while there are fewer than `count` (the first one first). */
  private pick(): Slot {
    if (this.slots.length === 0 || (this.firstReady && this.slots.length < this.count)) return this.spawn();
    return this.slots.reduce((a, b) => (b.busy < a.busy ? b : a));
  }

  run<T>(job: DistributiveOmit<RouteJob, "id">): Promise<T> {
    const slot = this.pick();
    const id = this.nextId++;
    slot.busy++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (r: unknown) => void, reject, slot });
      slot.worker.postMessage({ ...job, id });
    });
  }

  /**
   * A port on which another thread asks one of the workers for routes directly (the tracking
   * thread's trip ETAs: no hop through this thread). The worker answers on it until it exits,
   * which closes the port.
   */
  channel(): MessagePort {
    const slot = this.pick();
    const { port1, port2 } = new MessageChannel();
    slot.worker.postMessage({ kind: "port", port: port2 }, [port2]);
    return port1;
  }

  /**
   * Starts the workers now (they load the graphs), rather than on the first route: the first at
   * once, the others when it has loaded the imports (they adopt its graphs).
   */
  start() {
    this.started = true;
    if (this.slots.length === 0) this.spawn();
    while (this.firstReady && this.slots.length < this.count) this.spawn();
  }
}

const pool = () => processOnce("routing-pool", () => new RoutingPool(size()));

/** Starts the routing workers at server start. */
export function startRoutingWorkers(): void {
  pool().start();
}

/** A port to a routing worker that answers routes asked on it (see RoutingPool.channel). */
export function routingChannel(): MessagePort {
  return pool().channel();
}

/** The fastest route of each mode, computed in a routing worker. */
export function routeInWorker(
  origin: Position,
  destination: Position,
  modes: Mode[],
  avoid: AvoidMask,
  paths = false,
): Promise<RouteResult[]> {
  return pool().run<RouteResult[]>({ kind: "route", origin, destination, modes, avoid, paths });
}

/** The matrix of fastest routes for one mode, computed in a routing worker. */
export function matrixInWorker(
  origins: Position[],
  destinations: Position[],
  mode: Mode,
  avoid: AvoidMask,
): Promise<Cell[][]> {
  return pool().run<Cell[][]>({ kind: "matrix", origins, destinations, mode, avoid });
}

/** The earliest transit itinerary (server/transit/engine.ts), computed in a routing worker. */
export function transitInWorker(
  origin: Position,
  destination: Position,
  departure: Departure,
): Promise<TransitResult> {
  return pool().run<TransitResult>({ kind: "transit", origin, destination, departure });
}

/** The isochrones around a point for one mode (server/routing/isochrone.ts), computed in a routing worker. */
export function isochroneInWorker(
  origin: Position,
  mode: Mode,
  minutes: number[],
  avoid: AvoidMask,
): Promise<IsochroneResult> {
  return pool().run<IsochroneResult>({ kind: "isochrone", origin, mode, minutes, avoid });
}

/** Turn-by-turn directions through the points in order (server/routing/directions.ts), in a routing worker. */
export function directionsInWorker(
  points: Position[],
  mode: Mode,
  avoid: AvoidMask,
  language: string,
  alternatives = false,
): Promise<DirectionsResult> {
  return pool().run<DirectionsResult>({ kind: "directions", points, mode, avoid, language, alternatives });
}

/** A trace matched onto the roads (server/routing/match.ts), in a routing worker. */
export function matchInWorker(trace: TracePoint[], mode: Mode): Promise<MatchResult> {
  return pool().run<MatchResult>({ kind: "match", trace, mode });
}
