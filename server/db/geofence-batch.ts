import type { GeofenceColumns } from "../storage/geofence-records";
import { monotonicNow, newId } from "../storage/ids";

/**
 * What both adapters' batch writes of geofences (an import's chunk: `applyMany`) share with
 * Prisma's writes of one geofence (./prisma/geofences.ts).
 */

/** The columns a write sets, in one order: every field of GeofenceColumns. */
export const WRITTEN_COLUMNS = [
  "description",
  "tag",
  "externalId",
  "type",
  "geometry",
  "centerLng",
  "centerLat",
  "radius",
  "minLng",
  "minLat",
  "maxLng",
  "maxLat",
  "metadata",
  "enabled",
  "dwellThreshold",
  "userIds",
  "stopDetection",
  "disableAfter",
  "deleteAfter",
  "isochrone",
] as const satisfies readonly (keyof GeofenceColumns)[];

/** A new geofence's identity and times: its _id follows its createdAt (taken under the write lock on SQLite). */
export function newGeofenceStamp(live: boolean) {
  const now = monotonicNow();
  return { id: newId(now.getTime()), live, createdAt: now, updatedAt: now };
}

/**
 * A geofence's next version: its updatedAt is later than the one it replaces whatever this
 * process's clock says (another app process, or this one's clock run ahead by a burst of
 * writes, may have stamped that one later than now). Versions key If-Match preconditions and
 * the decoded geofences of tracking and search (server/geofences/decoded.ts); a trigger refuses
 * any change that does not make the version later (migration 20261128000000_geofence_version).
 */
export const nextVersion = (version: Date) =>
  new Date(Math.max(monotonicNow().getTime(), version.getTime() + 1));

/** The error a batch write throws to undo itself when geofences of it changed meanwhile. */
export class ChangedMeanwhile extends Error {
  constructor(readonly seqs: number[]) {
    super("geofences changed meanwhile");
  }
}
