import type { BBox } from "../geo/distance";
import type { GeofenceVersion, TrackedGeofence } from "./geofences";
import { trackingPart } from "./tracking";

/* Memberships: which geofences a user is in, as tracking reads and writes them. */

export interface Membership {
  geofenceSeq: number;
  enteredAt: Date;
  dwelled: boolean;
}

/** Which geofences a user enters, leaves and has now dwelled in. */
export interface MembershipChanges {
  entered: { geofenceSeq: number; enteredAt: Date }[];
  exited: number[];
  dwelled: number[];
}

/** What the geofence events read inside an update's transaction. */
export interface GeofenceTrackingReader {
  memberships(userSeq: number): Promise<Membership[]>;
  /**
   * The versions of the geofences whose box meets `box` and of those with the given seqs (where
   * the user is now): tracking decodes a geofence once per version (server/geofences/decoded.ts).
   */
  geofenceVersionsNear(live: boolean, box: BBox, seqs: readonly number[]): Promise<GeofenceVersion[]>;
  geofencesBySeqs(seqs: readonly number[]): Promise<TrackedGeofence[]>;
  /** The seqs of the geofences of a world with these _ids (those that exist; an anonymous device's own). */
  geofenceSeqsByIds(live: boolean, ids: readonly string[]): Promise<number[]>;
}

export const GEOFENCE_TRACKING = trackingPart<GeofenceTrackingReader, MembershipChanges>("geofences");
