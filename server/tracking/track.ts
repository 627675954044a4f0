import type { AuthKey } from "../auth/keys";
import { monotonicNow, newId } from "../storage/ids";
import { storage } from "../storage";
import type { Clock } from "./clock";
import { type TrackResult, decide } from "./decide";
import type { TrackInput } from "./schema";
import { prepareKinds } from "./kinds";
import { trackAnonymous } from "./anonymous";

export type { TrackResult } from "./decide";

/** The process's clock: strictly increasing times, the machine's time, and ids that follow them. */
export const processClock: Clock = { now: monotonicNow, wall: () => new Date(), newId };

/**
 * Applies one location update: the user is created or updated, the update is kept in the
 * history, and what the kinds find (geofence, place and region entries, exits and dwells, trips)
 * becomes events.
 *
 * The update is decided (./decide.ts) inside the transaction that writes it, with no other
 * update of the device decided meanwhile: the tracking store (server/storage/port.ts) owns the
 * transaction, the lock and any batching, so two updates of one device never both see the same
 * "before" state, and one answered update is one written update.
 */
export async function track(key: AuthKey, input: TrackInput): Promise<TrackResult> {
  if (input.anonymous) return trackAnonymous(key, input, processClock);
  // What the kinds find off the transaction first (the trip's road ETA: ./trips/hints.ts).
  const prepared = await prepareKinds(key.live, input);
  return storage().tracking.apply(
    { live: key.live, deviceId: input.deviceId, userId: input.userId ?? null },
    (read) => decide(read, key, input, processClock, prepared),
  );
}
