import type { AuthKey } from "../auth/keys";
import { storage } from "../storage";
import { findUser } from "./read";

/** How many recent locations a trail holds. */
export const TRAIL = { min: 1, max: 1000, default: 100 } as const;

export interface TrailPoint {
  /** [lng, lat] */
  coordinates: [number, number];
  accuracy: number;
  /** when the device was there */
  recordedAt: string;
}

/** A user's most recent locations (by when the device was there), newest first. */
export async function userTrail(key: AuthKey, ref: string, limit: number): Promise<TrailPoint[]> {
  const user = await findUser(key, ref);
  const rows = await storage().users.locations(user.seq, limit);
  return rows.map((r) => ({
    coordinates: [r.longitude, r.latitude],
    accuracy: r.accuracy,
    recordedAt: r.recordedAt.toISOString(),
  }));
}
