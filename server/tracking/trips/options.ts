import { z } from "zod";
import { metadataSchema } from "../../geofences/schema";
import { optionalInstant, optionalInt, optionalString, requiredString } from "../../http/fields";
import { TRIP_MODES } from "./model";

/** A trip's options as the SDKs send them: the track body's tripOptions, and the trip calls' fields. */

const mode = z.preprocess(
  (v) => (v === "" || v === null ? undefined : v),
  z.enum(TRIP_MODES, { error: () => `must be one of ${TRIP_MODES.join(", ")}` }).optional(),
);

/** What a trip's options say (create, update, and the track body's tripOptions). */
export const tripOptionFields = {
  metadata: metadataSchema(32).nullable().optional(),
  destinationGeofenceTag: optionalString(256),
  destinationGeofenceExternalId: optionalString(256),
  destinationGeofenceId: optionalString(64),
  mode,
  /** minutes (iOS sends a string) */
  approachingThreshold: optionalInt(1, 1440),
  /** ISO 8601 (iOS writes the offset as +0000) or epoch ms */
  scheduledArrivalAt: optionalInstant,
};

export const tripOptionsSchema = z.object({
  externalId: requiredString(256),
  ...tripOptionFields,
  // What the web SDK adds ("version": "2") and anything else is ignored.
});

export type TripOptions = z.output<typeof tripOptionsSchema>;
