import { geofencesBySeqs, membersOfGeofence, removeMembership, transaction } from "../db/sqlite/tracking";
import { EXIT_AT } from "./confidence";
import { insideProbability } from "./track";

/**
 * After a geofence's shape or state changed: users it no longer contains (or all of them, if it
 * was disabled) are no longer counted inside it. No events: the users did not move. Run under
 * the write lock.
 */
export function reconcileMembers(geofenceSeq: number): void {
  transaction(() => {
    const g = geofencesBySeqs([geofenceSeq])[0];
    for (const m of membersOfGeofence(geofenceSeq)) {
      if (!g?.enabled || insideProbability(g, m.latitude, m.longitude, m.accuracy) <= EXIT_AT) {
        removeMembership(m.userSeq, geofenceSeq);
      }
    }
  });
}
