import type { Json } from "../storage/json";
import type { TrackInput } from "./schema";

/**
 * What a device says of itself and of its last fix (Radar's SDKs send these with every update),
 * kept on the user as one object and answered at the user's top level, as Radar's user has them.
 */

/** Of the device: kept until it sends another value. */
export const DEVICE_FIELDS = [
  "deviceOS",
  "deviceMake",
  "deviceModel",
  "sdkVersion",
  "installId",
  "locationAuthorization",
  "locationAccuracyAuthorization",
] as const;

/** Of the fix: each update's own (a later update without a speed has none). */
export const FIX_FIELDS = ["altitude", "speed", "course", "replayed"] as const;

export type DeviceInfo = Partial<
  Record<(typeof DEVICE_FIELDS)[number], string> & {
    altitude: number;
    speed: number;
    course: number;
    replayed: boolean;
  }
>;

/** The device object after an update: what it had, with what this update says. */
export function deviceAfter(before: Json | undefined, input: TrackInput): DeviceInfo | null {
  const kept = (before && typeof before === "object" ? before : {}) as DeviceInfo;
  const next: Record<string, unknown> = {};
  for (const f of DEVICE_FIELDS) {
    const v = input[f] ?? kept[f];
    if (v !== undefined) next[f] = v;
  }
  for (const f of FIX_FIELDS) if (input[f] !== undefined) next[f] = input[f];
  return Object.keys(next).length ? (next as DeviceInfo) : null;
}
