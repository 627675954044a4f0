import { bboxAround, haversine } from "../geo/distance";
import { decodedOnce } from "../geofences/decoded";
import { MIN_ACCURACY } from "../geofences/inside";
import { type Regions, regionsAt } from "../geodata/regions";
import { placeById } from "../geodata/places";
import type { Membership, TrackingReader } from "../storage/tracking";
import type { StoredUser } from "../storage/users";
import type { TrackedGeofence } from "../storage/geofences";
import type { TripWrite } from "../storage/trips";
import type { EtaHint } from "./trips/model";
import { type Detection, VERDICT_RADIUS_M, detectPlace, placeEvidence } from "./places";

/** A location update as the detectors see it: where, how precisely, when, and whether stopped. */
export interface Fix {
  latitude: number;
  longitude: number;
  accuracy: number;
  /** when the device was there (its updatedAt, else when the update arrived) */
  at: Date;
  /** as the device says, or (when it does not) within 25 m of the previous fix */
  stopped: boolean;
  /** the SDK stored it offline and sent it later (its events say so) */
  replayed?: boolean;
}

/**
 * What the store and the imports hold around one update, read before anything is decided (inside
 * the transaction that will write the decision): the detectors decide from it alone.
 */
export interface Snapshot {
  /** the user before the update; null for a new one */
  before: StoredUser | null;
  /** the geofences the user is in, by seq */
  memberships: Map<number, Membership>;
  /** the geofences near the fix, and those the user is in */
  geofences: TrackedGeofence[];
  /** the regions at the fix, embedded and imported */
  regions: Regions;
  /** the place a stopped user is at (none when moving, or no place is near) */
  detection?: Detection;
  /** the place the user was at, as the imports hold it now (none: no place, or gone) */
  currentPlace?: Detection["place"];
  /** the trip the user is on (read in the transaction), as it is before the detectors move it */
  trip?: TripWrite | null;
  /** the road ETA computed before the transaction, for the destination and mode it names */
  eta?: EtaHint | null;
}

/** Geofences farther than this from the location are not considered, however poor the accuracy. */
const MAX_REACH_M = 5000;
/** Two fixes this close count as standing still when the device does not say. */
const SAME_SPOT_M = 25;

export function isStopped(stopped: boolean | undefined, lng: number, lat: number, before: StoredUser | null) {
  if (stopped !== undefined) return stopped;
  return !!before && haversine(before.longitude, before.latitude, lng, lat) <= SAME_SPOT_M;
}

export async function loadSnapshot(
  read: TrackingReader,
  live: boolean,
  fix: Fix,
  before: StoredUser | null,
): Promise<Snapshot> {
  const { latitude: lat, longitude: lng, accuracy } = fix;
  const memberships = new Map(
    before ? (await read.memberships(before.seq)).map((m) => [m.geofenceSeq, m]) : [],
  );
  const reach = Math.min(Math.max(accuracy, MIN_ACCURACY), MAX_REACH_M);
  const geofences = await decodedOnce(
    await read.geofenceVersionsNear(live, bboxAround(lng, lat, reach), [...memberships.keys()]),
    (seqs) => read.geofencesBySeqs(seqs),
  );
  let detection: Detection | undefined;
  if (fix.stopped) {
    const verdicts = await read.placeVerdictsInBox(live, bboxAround(lng, lat, VERDICT_RADIUS_M));
    detection = detectPlace(accuracy, placeEvidence(lng, lat, accuracy, verdicts));
  }
  const current = before?.place as { _id?: string } | null | undefined;
  return {
    before,
    memberships,
    geofences,
    regions: regionsAt(lng, lat),
    detection,
    currentPlace: current?._id ? placeById(current._id) : undefined,
  };
}
