import { z } from "zod";
import {
  booleanish,
  jsonish,
  numberIn,
  optionalInt,
  optionalInstant,
  optionalNumberIn,
  optionalString,
  requiredString,
} from "../http/fields";
import { NEARBY, metadataSchema } from "../geofences/schema";
import { tripOptionsSchema } from "./trips/options";
import { rangedBeaconsSchema } from "./beacons/schema";

/** Request schema of POST /v1/track and the wire forms of users and events. */

/** How far in the future a device clock may be before its updatedAt is refused. */
const CLOCK_SKEW_MS = 5 * 60_000;

/**
 * An optional time a device sends of something past (ISO 8601 or epoch ms), at most
 * CLOCK_SKEW_MS ahead of the server's clock; `future` is the refusal's words.
 */
export const pastInstant = (future: string) =>
  optionalInstant.superRefine((d, ctx) => {
    if (d && d.getTime() > Date.now() + CLOCK_SKEW_MS) ctx.addIssue({ code: "custom", message: future });
  });

/** The most ids of geofences or regions an anonymous device may say it is in. */
export const MAX_STATE_IDS = 100;

const stateIds = z.preprocess(
  (v) => (v === null || v === "" ? undefined : v),
  jsonish(
    z
      .array(requiredString(64), { error: "must be a list of _ids" })
      .max(MAX_STATE_IDS, `must hold at most ${MAX_STATE_IDS} _ids`),
  ).optional(),
);

export const trackSchema = z.object({
  deviceId: requiredString(256),
  latitude: numberIn(-90, 90),
  longitude: numberIn(-180, 180),
  accuracy: numberIn(0, 100_000),
  userId: optionalString(256),
  description: optionalString(1000),
  metadata: z.preprocess((v) => (v === "" ? null : v), metadataSchema(32).nullable().optional()),
  foreground: booleanish.optional(),
  stopped: booleanish.optional(),
  deviceType: optionalString(64),
  // What the device says of itself (kept until it says otherwise) and of this fix: Radar's SDKs
  // send them with every update (server/tracking/device.ts).
  deviceOS: optionalString(64),
  deviceMake: optionalString(64),
  deviceModel: optionalString(64),
  sdkVersion: optionalString(32),
  installId: optionalString(256),
  locationAuthorization: optionalString(64),
  locationAccuracyAuthorization: optionalString(64),
  /** meters above sea level */
  altitude: optionalNumberIn(-20_000, 100_000),
  /** meters per second; iOS sends -1 when it has none */
  speed: optionalNumberIn(-1, 2_000),
  /** degrees clockwise from north; iOS sends -1 when it has none */
  course: optionalNumberIn(-1, 360),
  /** the SDK sends this update late, from its offline buffer */
  replayed: booleanish.optional(),
  /** the SDKs' geofence sync: answer the nearest geofences too (not part of the update) */
  nearbyGeofences: booleanish.optional(),
  nearbyGeofencesLimit: optionalInt(0, NEARBY.limit.max),
  updatedAt: pastInstant("is in the future; send the time the location was recorded"),
  /**
   * the SDKs' anonymous tracking: nothing of the device is stored; it sends the state it keeps
   * (the geofences, place and regions it is in, by _id) instead (server/tracking/anonymous.ts)
   */
  anonymous: booleanish.optional(),
  geofenceIds: stateIds,
  placeId: optionalString(64),
  regionIds: stateIds,
  /** the beacons the device ranged (docs/beacons.md): absent, nothing of the user's beacons changes */
  beacons: rangedBeaconsSchema.optional(),
  /** the SDKs' trip options, sent with every update while a trip runs (docs/trips.md) */
  tripOptions: z.preprocess((v) => (v === null ? undefined : v), jsonish(tripOptionsSchema).optional()),
});

export type TrackInput = z.output<typeof trackSchema>;
