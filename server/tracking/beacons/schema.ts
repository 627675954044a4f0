import { z } from "zod";
import type { BeaconColumns, BeaconIdentity, StoredBeacon } from "../../storage/beacons";
import { METADATA_MAX_KEYS, metadataSchema } from "../../geofences/schema";
import { booleanish, cursorDate, intIn, jsonish, optionalString, requiredString } from "../../http/fields";

/* Beacons as the API takes and gives them (Radar's shapes: docs/beacons.md). */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An iBeacon proximity UUID, kept lowercase (iOS ranges it so, Android in either case). */
const uuidField = z
  .string({ error: "is required, as a UUID (8-4-4-4-12 hexadecimal digits)" })
  .trim()
  .refine((v) => UUID.test(v), "must be a UUID (8-4-4-4-12 hexadecimal digits)")
  .transform((v) => v.toLowerCase());

/** major or minor: 0–65535, sent as a number or its digits; kept as its decimal string, as Radar's are. */
const part = z
  .union([z.string().trim(), z.number()], { error: "is required, as a whole number from 0 to 65535" })
  .transform((v, ctx) => {
    const n = typeof v === "number" ? v : /^\d+$/.test(v) ? Number(v) : NaN;
    if (!Number.isInteger(n) || n < 0 || n > 65_535) {
      ctx.addIssue({ code: "custom", message: "must be a whole number from 0 to 65535" });
      return z.NEVER;
    }
    return String(n);
  });

/** `coordinates`: [longitude, latitude] (a JSON array, or "lng,lat" from a form). */
const coordinates = jsonish(
  z.tuple([z.number().min(-180).max(180), z.number().min(-90).max(90)], {
    error: "must be [longitude, latitude]",
  }),
);

const fields = {
  description: requiredString(256),
  tag: optionalString(256),
  externalId: optionalString(256),
  /** Radar's beacon types: only iBeacon is ranged by the SDKs' beacon tracking */
  type: z.enum(["ibeacon"], { error: 'must be "ibeacon"' }).optional(),
  uuid: uuidField,
  major: part,
  minor: part,
  coordinates,
  metadata: metadataSchema(METADATA_MAX_KEYS).nullable().optional(),
  enabled: booleanish.optional(),
};

export const beaconWriteSchema = z.object(fields);
/** PUT /v1/beacons/{id}: the fields sent change, the others stay. */
export const beaconPatchSchema = z.object(fields).partial();
export const beaconTagRefSchema = z.object({ tag: requiredString(256), externalId: requiredString(256) });

export type BeaconWrite = z.output<typeof beaconWriteSchema>;
export type BeaconPatch = z.output<typeof beaconPatchSchema>;

export const BEACON_LIST_LIMIT = { min: 1, max: 1000, default: 100 } as const;

export const beaconListSchema = z.object({
  limit: intIn(BEACON_LIST_LIMIT.min, BEACON_LIST_LIMIT.max, BEACON_LIST_LIMIT.default),
  tag: optionalString(256),
  createdBefore: cursorDate,
  createdAfter: cursorDate,
});

/** What a device says it ranged (the track body's `beacons`): Android sends _id, uuid, major and minor; iOS rssi and type too. */
export const rangedBeaconsSchema = jsonish(
  z
    .array(z.object({ uuid: uuidField, major: part, minor: part }).passthrough(), {
      error: "must be an array of {uuid, major, minor}",
    })
    .max(100, "must hold at most 100 beacons"),
);

export const rangedIdentities = (ranged: readonly BeaconIdentity[]): BeaconIdentity[] =>
  ranged.map(({ uuid, major, minor }) => ({ uuid, major, minor }));

/** Degrees to 7 decimals (about a centimeter): stored and answered exactly on both engines. */
const toCentimeters = (degrees: number) => Math.round(degrees * 1e7) / 1e7;

/** A write's columns: what it sends, the rest as they were (a patch) or their defaults. */
export function beaconColumns(w: BeaconPatch, before?: StoredBeacon): BeaconColumns {
  return {
    description: w.description ?? before?.description ?? "",
    tag: w.tag !== undefined ? w.tag : (before?.tag ?? null),
    externalId: w.externalId !== undefined ? w.externalId : (before?.externalId ?? null),
    uuid: w.uuid ?? before?.uuid ?? "",
    major: w.major ?? before?.major ?? "0",
    minor: w.minor ?? before?.minor ?? "0",
    longitude: w.coordinates ? toCentimeters(w.coordinates[0]) : (before?.longitude ?? 0),
    latitude: w.coordinates ? toCentimeters(w.coordinates[1]) : (before?.latitude ?? 0),
    metadata: w.metadata !== undefined ? w.metadata : (before?.metadata ?? null),
    enabled: w.enabled ?? before?.enabled ?? true,
  };
}

/** A beacon in Radar's wire form (what the SDKs parse: _id, description, tag, externalId, uuid, major, minor, geometry). */
export function serializeBeacon(b: StoredBeacon): Record<string, unknown> {
  const w: Record<string, unknown> = { _id: b.id, live: b.live, description: b.description };
  if (b.tag !== null) w.tag = b.tag;
  if (b.externalId !== null) w.externalId = b.externalId;
  w.type = "ibeacon";
  w.uuid = b.uuid;
  w.major = b.major;
  w.minor = b.minor;
  if (b.metadata !== null) w.metadata = b.metadata;
  w.geometry = { type: "Point", coordinates: [b.longitude, b.latitude] };
  w.enabled = b.enabled;
  w.createdAt = b.createdAt.toISOString();
  w.updatedAt = b.updatedAt.toISOString();
  return w;
}
