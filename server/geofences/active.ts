import type { GeofenceFields } from "../storage/geofence-records";

/**
 * Whether a geofence makes events for a user at a time: it is enabled, its disableAfter and
 * deleteAfter have not come (each app process's sweeper acts on them within a second:
 * server/geofences/expiry.ts; a decision made meanwhile does not wait for it), and, when it names
 * users (`userIds`), the user is one of them. A user in a geofence that is not active for it is
 * simply no longer counted inside, without an event: it did not move.
 */
export function activeFor(
  g: Pick<GeofenceFields, "enabled" | "userIds" | "disableAfter" | "deleteAfter">,
  userId: string | null,
  at: Date,
): boolean {
  if (!g.enabled) return false;
  if (g.disableAfter && g.disableAfter <= at) return false;
  if (g.deleteAfter && g.deleteAfter <= at) return false;
  const only = g.userIds as string[] | null;
  return !only || (userId !== null && only.includes(userId));
}
