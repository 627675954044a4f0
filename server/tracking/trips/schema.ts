import { z } from "zod";
import { metadataSchema } from "../../geofences/schema";
import {
  booleanish,
  choiceList,
  cursorDate,
  jsonish,
  optionalInt,
  optionalNumberIn,
  optionalString,
  requiredString,
} from "../../http/fields";
import { TRIP_STATUSES } from "./model";
import { tripOptionFields as options } from "./options";

/**
 * The trip calls' input as Radar's SDKs and API send it (docs/trips.md): the body of
 * POST /v1/trips, of PATCH /v1/trips/{ref}/update, the track body's tripOptions, the legs, and
 * the list's query.
 */

/** Most legs a trip may have. */
export const MAX_LEGS = 25;

/** A leg's destination, as the Android SDK writes it ({destination: {...}}) or flat on the leg. */
const legDestination = z.object({
  destinationGeofenceTag: optionalString(256),
  destinationGeofenceExternalId: optionalString(256),
  destinationGeofenceId: optionalString(64),
  address: optionalString(512),
  /** [longitude, latitude], as the SDKs send them */
  coordinates: z
    .tuple([z.number().min(-180).max(180), z.number().min(-90).max(90)], {
      error: () => "must be [longitude, latitude]",
    })
    .optional(),
  arrivalRadius: optionalNumberIn(1, 10_000),
});

const leg = z
  .object({
    destination: legDestination.optional(),
    stopDuration: optionalInt(0, 1440),
    metadata: metadataSchema(32).nullable().optional(),
  })
  .extend(legDestination.shape)
  .transform((l, ctx) => {
    const d = { ...l, ...l.destination };
    const geofence =
      !!d.destinationGeofenceId || !!(d.destinationGeofenceTag && d.destinationGeofenceExternalId);
    if (!geofence && !d.address && !d.coordinates) {
      ctx.addIssue({
        code: "custom",
        path: ["destination"],
        message:
          "needs a destination: destinationGeofenceTag and destinationGeofenceExternalId, destinationGeofenceId, address or coordinates",
      });
      return z.NEVER;
    }
    return {
      geofence: geofence
        ? d.destinationGeofenceId
          ? { id: d.destinationGeofenceId }
          : { tag: d.destinationGeofenceTag!, externalId: d.destinationGeofenceExternalId! }
        : null,
      address: geofence ? null : (d.address ?? null),
      coordinates: geofence || d.address ? null : d.coordinates!,
      arrivalRadius: d.arrivalRadius ?? null,
      stopDuration: l.stopDuration ?? 0,
      metadata: l.metadata ?? null,
    };
  });

export type LegInput = z.output<typeof leg>;

export const createTripSchema = z.object({
  externalId: requiredString(256),
  userId: optionalString(256),
  deviceId: optionalString(256),
  installId: optionalString(256),
  ...options,
  /** "pending": made now for later (never on the user's trip until started); default "started" */
  status: z.preprocess(
    (v) => (v === "" || v === null ? undefined : v),
    z.enum(["pending", "started"], { error: () => "must be pending or started" }).optional(),
  ),
  legs: jsonish(z.array(leg).max(MAX_LEGS, `must be at most ${MAX_LEGS} legs`)).optional(),
});

export type CreateTripInput = z.output<typeof createTripSchema>;

export const updateTripSchema = z.object({
  status: z.preprocess(
    (v) => (v === "" || v === null || v === "unknown" ? undefined : v),
    z.enum(TRIP_STATUSES, { error: () => `must be one of ${TRIP_STATUSES.join(", ")}` }).optional(),
  ),
  // The SDKs send the trip's externalId again: it is the path's, and not changed.
  externalId: optionalString(256),
  // Who calls (the mobile SDKs send their userId): a publishable key reaches a trip by
  // externalId only with the trip's own userId, or deviceId (docs/security.md).
  userId: optionalString(256),
  deviceId: optionalString(256),
  installId: optionalString(256),
  ...options,
});

export type UpdateTripInput = z.output<typeof updateTripSchema>;

export const reorderLegsSchema = z.object({
  legs: jsonish(z.array(requiredString(64)).min(1, "is required").max(MAX_LEGS)),
});

export const legStatusSchema = z.object({
  status: z.enum(["started", "approaching", "arrived", "completed", "canceled"], {
    error: () => "must be started, approaching, arrived, completed or canceled",
  }),
});

export const listTripsSchema = z.object({
  status: choiceList(TRIP_STATUSES).optional(),
  destinationGeofenceTag: optionalString(256),
  destinationGeofenceExternalId: optionalString(256),
  externalId: optionalString(256),
  userId: optionalString(256),
  createdAfter: cursorDate,
  createdBefore: cursorDate,
  delayed: booleanish.optional(),
  includeLocations: booleanish.optional(),
  sortBy: z.enum(["createdAt", "updatedAt", "scheduledArrivalAt"]).optional(),
  limit: optionalInt(1, 1000),
});

export const getTripSchema = z.object({ includeLocations: booleanish.optional() });
