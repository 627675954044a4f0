import { type MessagePort, parentPort } from "node:worker_threads";
import type { Position } from "../geo/distance";
import type { RouteResult } from "../routing/engine";
import type { Mode } from "../routing/profiles";
import type { AuthKey } from "../auth/keys";
import { env } from "../config/env";
import { ApiError } from "../errors";
import { preloadEmbeddedRegions } from "../regions/embedded";
import { preloadPostalCodes } from "../regions/postal";
import { trackingThreadConnections } from "../storage";
import { SLOT, beat, threadMemory } from "../workers/thread-memory";
import type { TrackInput } from "./schema";
import { serializeEvent, serializeUser } from "./serialize";
import { track } from "./track";
import { nearbyGeofences } from "../geofences/search";
import { mayRead, sentUser } from "./visible";
import { routeTripsWith } from "./trips/eta";
import { log } from "../log/logger.mjs";
import { metrics } from "../metrics/metrics.mjs";

/**
 * The tracking thread (server/tracking/thread.ts): applies the location updates the server's
 * thread has authenticated, read and validated, through the storage port with a store of its
 * own (its own database connection; on SQLite the group commit runs here), and answers with the
 * wire form as JSON text (a string crosses threads as one copy; an object graph is cloned). The server's thread never waits on a tracking transaction.
 */

export interface TrackJob {
  id: number;
  key: AuthKey;
  input: TrackInput;
  /** the geofences near the location, when the device asks and may (app/v1/track/route.ts) */
  nearby?: Nearby;
}

/** An update's answer as JSON (user, events), and the nearby geofences' (an array) when asked. */
export interface Tracked {
  answer: string;
  nearby?: string;
}

/** What a track's `nearbyGeofences` asks: how many, and for which user (those active for it). */
export interface Nearby {
  limit: number;
  userId: string | null;
}

/**
 * What goes back: the answer's payload and the nearby geofences asked for (each as JSON), or the
 * error it became (an ApiError's fields).
 */
export type TrackReply =
  | ({ id: number } & Tracked)
  | { id: number; error: { code?: ApiError["code"]; message: string; param?: string; retryAfter?: number } };

/** A route asked of the server's thread for a trip's ETA, and its answer. */
export interface RouteAsk {
  id: number;
  origin: Position;
  destination: Position;
  mode: Mode;
}
export interface RouteAnswer {
  id: number;
  results?: RouteResult[];
  error?: string;
}

trackingThreadConnections();
// An update's context (country, state, ZIP code) is read from these.
if (env().PRELOAD_DATASETS) {
  preloadEmbeddedRegions();
  preloadPostalCodes();
}
// Loaded: ready for updates (the readiness probe waits for the first beat).
beat(SLOT.trackingBeat);

/** Routes for trips' ETAs, asked of a routing worker on a port of its own (server/tracking/thread.ts). */
let routes: MessagePort | null = null;
let nextRoute = 1;
const routeWaits = new Map<number, { resolve: (r: RouteResult[]) => void; reject: (e: Error) => void }>();
routeTripsWith(
  (origin, destination, mode) =>
    new Promise((resolve, reject) => {
      if (!routes) return resolve([]);
      const id = nextRoute++;
      routeWaits.set(id, { resolve, reject });
      routes.postMessage({ id, origin, destination, mode } satisfies RouteAsk);
    }),
);

const port = parentPort!;
port.on("message", (job: TrackJob | { routes: MessagePort }) => {
  if ("routes" in job) {
    routes = job.routes;
    routes.on("message", (m: RouteAnswer) => {
      const wait = routeWaits.get(m.id);
      routeWaits.delete(m.id);
      if (m.error !== undefined) wait?.reject(new Error(m.error));
      else wait?.resolve(m.results ?? []);
    });
    // Its routing worker exited: what it held is answered by the straight line, and a new port
    // is asked for.
    routes.on("close", () => {
      routes = null;
      for (const wait of routeWaits.values()) wait.resolve([]);
      routeWaits.clear();
      port.postMessage({ routesClosed: true });
    });
    return;
  }
  // Held from now until answered (updatesOnTheWay, server/workers/thread-memory.ts).
  const memory = threadMemory();
  Atomics.add(memory, SLOT.trackHeld, 1);
  const reply = (r: TrackReply) => {
    Atomics.sub(memory, SLOT.trackHeld, 1);
    port.postMessage(r);
  };
  // The nearby geofences are a read of the location alone, looked up here beside the update (on
  // this thread rather than the server's, which is the busier of the two under load).
  Promise.all([
    track(job.key, job.input),
    job.nearby && nearbyGeofences(job.key, job.input, job.nearby.limit, job.nearby.userId),
  ]).then(
    ([r, nearby]) => {
      metrics.trackingUpdates.inc();
      const answer = JSON.stringify(
        mayRead(job.key, r.owned)
          ? {
              user: serializeUser(r.user, r.shown),
              events: r.events.map(serializeEvent),
            }
          : // What the request sent: the update is applied (or older, ignored), its events are
            // stored and sent to webhooks, but the answer holds nothing of the stored user.
            {
              user: sentUser(
                r.user.id,
                job.input,
                job.input.updatedAt ?? r.user.actualUpdatedAt,
                r.user.live,
              ),
              events: [],
            },
      );
      reply({ id: job.id, answer, nearby });
    },
    (e: unknown) => {
      if (e instanceof ApiError) {
        const { code, message, param, retryAfter } = e;
        reply({ id: job.id, error: { code, message, param, retryAfter } });
        return;
      }
      log.error({ err: e }, "tracking failed");
      reply({ id: job.id, error: { message: "tracking failed" } });
    },
  );
});
