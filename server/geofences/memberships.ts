import { storage } from "../storage";
import { activeFor } from "./active";
import { EXIT_AT, insideProbability } from "./inside";

/**
 * After geofences' shapes or states changed: users one no longer contains (or all of them, if it
 * was disabled or deleted; those it no longer names, if it names users) are no longer counted
 * inside it. No events: the users did not move.
 */
export function reconcileMembers(...geofenceSeqs: number[]): Promise<void> {
  return storage().geofences.reconcileMembers(
    geofenceSeqs,
    (g, m) =>
      !!g &&
      activeFor(g, m.userId, new Date()) &&
      insideProbability(g, m.latitude, m.longitude, m.accuracy) > EXIT_AT,
  );
}
