import { parentPort } from "node:worker_threads";
import type { AuthKey } from "../auth/keys";
import { ApiError } from "../errors";
import { preloadEmbeddedRegions } from "../regions/embedded";
import { preloadPostalCodes } from "../regions/postal";
import type { TrackInput } from "./schema";
import { serializeEvent, serializeUser } from "./serialize";
import { track } from "./track";

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
}

/** What goes back: the answer's payload, or the error it became (an ApiError's fields). */
export type TrackReply =
  | { id: number; answer: string }
  | { id: number; error: { code?: ApiError["code"]; message: string; param?: string; retryAfter?: number } };

preloadEmbeddedRegions();
preloadPostalCodes();

const port = parentPort!;
port.on("message", (job: TrackJob) => {
  track(job.key, job.input).then(
    (r) =>
      port.postMessage({
        id: job.id,
        answer: JSON.stringify({
          user: serializeUser(r.user, r.geofences),
          events: r.events.map(serializeEvent),
        }),
      } satisfies TrackReply),
    (e: unknown) => {
      if (e instanceof ApiError) {
        const { code, message, param, retryAfter } = e;
        port.postMessage({ id: job.id, error: { code, message, param, retryAfter } } satisfies TrackReply);
        return;
      }
      console.error("tracking failed", e);
      port.postMessage({ id: job.id, error: { message: "tracking failed" } } satisfies TrackReply);
    },
  );
});
