import { storage } from "../storage";
import { activeFor } from "./active";
import { EXIT_AT, insideProbability } from "./inside";

/**
 * After a geofence's shape or state changed: users it no longer contains (or all of them, if it
 * was disabled or deleted; those it no longer names, if it names users) are no longer counted
 * inside it. No events: the users did not move.
 */
export function reconcileMembers(geofenceSeq: number): Promise<void> {
  return storage().geofences.reconcileMembers(
    geofenceSeq,
    (g, m) =>
      !!g &&
      activeFor(g, m.userId, new Date()) &&
      insideProbability(g, m.latitude, m.longitude, m.accuracy) > EXIT_AT,
  );
}
