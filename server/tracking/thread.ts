import path from "node:path";
import { pathToFileURL } from "node:url";
import { MessageChannel, type Worker } from "node:worker_threads";
import type { AuthKey } from "../auth/keys";
import { ApiError } from "../errors";
import { processOnce } from "../process-once";
import { forgetThread, startWorker } from "../workers/thread-memory";
import type { TrackInput } from "./schema";
import type { RouteAnswer, RouteAsk, TrackJob, TrackReply } from "./worker";
import type { Position } from "../geo/distance";
import type { RouteResult } from "../routing/engine";
import type { Mode } from "../routing/profiles";

/** How the server's thread routes for trips' ETAs (the routing workers: set at start by serveTripRoutes). */
export type TripRoutes = (origin: Position, destination: Position, mode: Mode) => Promise<RouteResult[]>;

/**
 * Gives the tracking thread routes for trips' ETAs: called before it starts, by the process's
 * start (instrumentation.ts), which knows the routing workers (a layer this folder may not use).
 */
export function serveTripRoutes(routes: TripRoutes): void {
  (globalThis as { tripRoutes?: TripRoutes }).tripRoutes = routes;
}

/**
 * Tracking on a thread of its own (docs/architecture.md#the-tracking-thread). The server's
 * thread checks the key, reads and validates the update and posts it here; a worker thread
 * decides and writes it (server/tracking/worker.ts) and answers with the wire form. So the
 * transactions of tracking (on SQLite, synchronous calls of a batch at a time) never hold up the
 * event loop that serves every other request, and one app process uses a second core.
 *
 * One worker: on SQLite it is the one writer of tracking, whose group commit needs every update
 * in one place; on PostgreSQL a worker's event loop interleaves many updates on its own pool.
 */

interface Pending {
  resolve(answer: string): void;
  reject(error: Error): void;
}

const WORKER_ENTRY = pathToFileURL(path.join(process.cwd(), "server", "tracking", "worker.ts")).href;

export class TrackingThread {
  private worker: Worker | null = null;
  private pending = new Map<number, Pending>();
  private nextId = 1;

  /** `entry`: the worker's module (server/tracking/worker.ts; another in tests). */
  constructor(private readonly entry = WORKER_ENTRY) {}

  private spawn(): Worker {
    const worker = startWorker(this.entry);
    worker.unref();
    // Trips' ETAs: the worker asks for routes here, where the routing workers are.
    const router = (globalThis as { tripRoutes?: TripRoutes }).tripRoutes;
    if (router) {
      const { port1, port2 } = new MessageChannel();
      port1.unref();
      port1.on("message", (ask: RouteAsk) => {
        router(ask.origin, ask.destination, ask.mode).then(
          (results) => port1.postMessage({ id: ask.id, results } satisfies RouteAnswer),
          (e: unknown) => port1.postMessage({ id: ask.id, error: String(e) } satisfies RouteAnswer),
        );
      });
      worker.postMessage({ routes: port2 }, [port2]);
    }
    worker.on("message", (m: TrackReply) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if ("answer" in m) p.resolve(m.answer);
      else if (m.error.code)
        p.reject(new ApiError(m.error.code, m.error.message, m.error.param, m.error.retryAfter));
      else p.reject(new Error(m.error.message));
    });
    const fail = (error: Error) => {
      // The worker is gone: the updates it held fail (none was answered as written), and a new
      // worker takes the next ones.
      if (this.worker !== worker) return;
      this.worker = null;
      const held = [...this.pending.values()];
      this.pending.clear();
      for (const p of held) p.reject(error);
    };
    worker.on("error", fail);
    const id = worker.threadId;
    worker.on("exit", (code) => {
      forgetThread(id);
      fail(new Error(`tracking worker exited (${code})`));
    });
    this.worker = worker;
    return worker;
  }

  run(key: AuthKey, input: TrackInput): Promise<string> {
    const worker = this.worker ?? this.spawn();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({
        id,
        key: { id: key.id, kind: key.kind, live: key.live },
        input,
      } satisfies TrackJob);
    });
  }

  start() {
    if (!this.worker) this.spawn();
  }

  /** Ends the worker (tests). */
  async stop() {
    await this.worker?.terminate();
  }
}

const thread = () => processOnce("tracking-thread", () => new TrackingThread());

/** Starts the tracking worker at server start, rather than on the first update. */
export function startTrackingThread(): void {
  thread().start();
}

/** Applies one update on the tracking thread; resolves to the answer's payload (user, events) as JSON. */
export function trackOnThread(key: AuthKey, input: TrackInput): Promise<string> {
  return thread().run(key, input);
}
