import { haversine } from "../geo/distance";
import type { StoredUser } from "../storage/users";

/** A location update as the kinds see it: where, how precisely, when, and whether stopped. */
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

/** Two fixes this close count as standing still when the device does not say. */
const SAME_SPOT_M = 25;

export function isStopped(stopped: boolean | undefined, lng: number, lat: number, before: StoredUser | null) {
  if (stopped !== undefined) return stopped;
  return !!before && haversine(before.longitude, before.latitude, lng, lat) <= SAME_SPOT_M;
}
