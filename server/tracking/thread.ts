import path from "node:path";
import { pathToFileURL } from "node:url";
import type { MessagePort, Worker } from "node:worker_threads";
import type { AuthKey } from "../auth/keys";
import { ApiError } from "../errors";
import { processOnce } from "../process-once";
import { log } from "../log/logger.mjs";
import { SLOT, forgetThread, startWorker, threadMemory } from "../workers/thread-memory";
import type { TrackInput } from "./schema";
import type { Nearby, TrackJob, TrackReply, Tracked } from "./worker";

/** Makes a port to a routing worker (server/planner/pool.ts: routingChannel), for trips' ETAs. */
export type TripRoutes = () => MessagePort;

/**
 * Gives the tracking thread routes for trips' ETAs: a port straight to a routing worker, so
 * neither the question nor the answer passes through the server's thread. Called before the
 * tracking thread starts, by the process's start (instrumentation.ts), which knows the routing
 * workers (a layer this folder may not use).
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
  resolve(tracked: Tracked): void;
  reject(error: Error): void;
}

const RESTART_MS = 1000;
const WORKER_ENTRY = pathToFileURL(path.join(process.cwd(), "server", "tracking", "worker.ts")).href;

export class TrackingThread {
  private worker: Worker | null = null;
  private pending = new Map<number, Pending>();
  private nextId = 1;
  private stopped = false;

  /** `entry`: the worker's module (server/tracking/worker.ts; another in tests). */
  constructor(private readonly entry = WORKER_ENTRY) {}

  private spawn(): Worker {
    // What a worker that exited had taken is no longer held by anyone.
    Atomics.store(threadMemory(), SLOT.trackHeld, 0);
    const worker = startWorker(this.entry, "tracking");
    worker.unref();
    this.connectRoutes(worker);
    worker.on("message", (m: TrackReply | { routesClosed: true }) => {
      if ("routesClosed" in m) return this.connectRoutes(worker);
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if ("answer" in m) p.resolve({ answer: m.answer, nearby: m.nearby });
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
      const gone = this.worker === worker;
      fail(new Error(`tracking worker exited (${code})`));
      // A new worker is started a second later, not only by the next update: the readiness probe
      // reports the thread as ready again once it beats.
      if (gone && !this.stopped) {
        log.error({ code }, "the tracking thread exited; starting it again");
        setTimeout(() => {
          if (!this.worker && !this.stopped) this.spawn();
        }, RESTART_MS).unref();
      }
    });
    this.worker = worker;
    return worker;
  }

  /** Hands the worker a port to a routing worker, for trips' ETAs (again when that one exits). */
  private connectRoutes(worker: Worker) {
    const connect = (globalThis as { tripRoutes?: TripRoutes }).tripRoutes;
    if (!connect) return;
    const port = connect();
    worker.postMessage({ routes: port }, [port]);
  }

  run(key: AuthKey, input: TrackInput, nearby?: Nearby): Promise<Tracked> {
    const worker = this.worker ?? this.spawn();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({
        id,
        key: { id: key.id, kind: key.kind, live: key.live },
        input,
        nearby,
      } satisfies TrackJob);
    });
  }

  start() {
    if (!this.worker) this.spawn();
  }

  /** Ends the worker (tests). */
  async stop() {
    this.stopped = true;
    await this.worker?.terminate();
  }
}

const thread = () => processOnce("tracking-thread", () => new TrackingThread());

/** Starts the tracking worker at server start, rather than on the first update. */
export function startTrackingThread(): void {
  thread().start();
}

/**
 * Applies one update on the tracking thread; resolves to the answer's payload (user, events) as
 * JSON, and the nearby geofences' when asked.
 */
export function trackOnThread(key: AuthKey, input: TrackInput, nearby?: Nearby): Promise<Tracked> {
  return thread().run(key, input, nearby);
}

/**
 * Runs a /v1/track request's route, counted (updatesOnTheWay) from when it enters the route until
 * it leaves it, answered or refused: a batch that knows more updates are coming may wait for them.
 */
export async function countedTrackRequest<T>(route: () => Promise<T>): Promise<T> {
  const memory = threadMemory();
  Atomics.add(memory, SLOT.trackRequests, 1);
  try {
    return await route();
  } finally {
    Atomics.sub(memory, SLOT.trackRequests, 1);
  }
}
