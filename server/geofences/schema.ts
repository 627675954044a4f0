import { z } from "zod";
import type {
  GeofenceColumns,
  GeofenceFields,
  IsochroneMaking,
  StoredGeofence,
} from "../storage/geofence-records";
import type { Position } from "../geo/distance";
import {
  booleanish,
  commaList,
  coordinatePair,
  cursorDate,
  intIn,
  jsonish,
  optionalInt,
  optionalNumber,
  optionalString,
  viewBounds,
  requiredString,
  withMetadataFilter,
} from "../http/fields";
import { parseCursorDate } from "../http/datetime";
import { ISOCHRONE_MODES, LIMITS, type Shape, asPosition, circleShape, polygonShape } from "./shape";

/** Request schemas, the wire serializer and the types of the geofence resource. */

export const METADATA_MAX_KEYS = 16;

export const metadataSchema = (maxKeys: number) =>
  jsonish(
    z
      .record(
        z.string().max(128, "keys must be at most 128 characters"),
        z.union(
          [z.string().max(2048, "string values must be at most 2048 characters"), z.number(), z.boolean()],
          {
            error: "values must be strings, numbers or booleans",
          },
        ),
        { error: "must be an object" },
      )
      .refine((m) => Object.keys(m).length <= maxKeys, `must have at most ${maxKeys} keys`),
  );

export const USER_IDS_MAX = 100;

/** `userIds`: a JSON array of user IDs, or "a,b" (a CSV cell); null, "" or [] clears it. */
const userIdsField = z.preprocess(
  (v) =>
    v === "" || (Array.isArray(v) && v.length === 0)
      ? null
      : typeof v === "string"
        ? v.split(",").map((s) => s.trim())
        : v,
  z
    .array(z.string({ error: "must be strings" }).min(1, "must not be empty").max(256), {
      error: "must be an array of user IDs",
    })
    .max(USER_IDS_MAX, `must have at most ${USER_IDS_MAX} user IDs`)
    .transform((ids) => [...new Set(ids)])
    .nullable()
    .optional(),
);

/** `disableAfter`, `deleteAfter`: an ISO 8601 datetime (or epoch ms); null or "" clears it. */
const scheduledAt = z.preprocess(
  (v) => (v === "" ? null : typeof v === "number" ? String(v) : v),
  z
    .string({ error: "must be an ISO 8601 datetime" })
    .nullable()
    .optional()
    .transform((v, ctx) => {
      if (v === null || v === undefined) return v;
      const d = parseCursorDate(v);
      if (!d) {
        ctx.addIssue({ code: "custom", message: "must be an ISO 8601 datetime" });
        return z.NEVER;
      }
      return d;
    }),
);

export const geofenceWriteSchema = z
  .object({
    description: requiredString(1000),
    type: z.enum(["circle", "polygon", "isochrone"], {
      error: (i) =>
        i.input === undefined
          ? "is required (circle, polygon or isochrone)"
          : "must be circle, polygon or isochrone",
    }),
    /** an isochrone's mode (default car) */
    mode: z.preprocess(
      (v) => (v === "" || v === null ? undefined : v),
      z.enum(ISOCHRONE_MODES, { error: () => `must be one of ${ISOCHRONE_MODES.join(", ")}` }).optional(),
    ),
    coordinates: jsonish(z.unknown()).refine((v) => v !== undefined && v !== null && v !== "", "is required"),
    radius: optionalNumber,
    tag: optionalString(256),
    externalId: optionalString(256),
    metadata: z.preprocess(
      (v) => (v === "" ? null : v),
      metadataSchema(METADATA_MAX_KEYS).nullable().optional(),
    ),
    // Empty (a CSV's empty cell) is the default, enabled.
    enabled: z.preprocess((v) => (v === "" || v === null ? undefined : v), booleanish.optional()),
    dwellThreshold: optionalInt(1, 10_080),
    userIds: userIdsField,
    stopDetection: z.preprocess((v) => (v === "" || v === null ? undefined : v), booleanish.optional()),
    disableAfter: scheduledAt,
    deleteAfter: scheduledAt,
  })
  .transform((input, ctx) => {
    const { coordinates: _c, radius: _r, mode: _m, ...rest } = input;
    if (input.type === "isochrone") {
      // Drawn from the roads when it is written (server/geofences/isochrones.ts).
      const isochrone = isochroneRequest(input.coordinates, input.radius, input.mode);
      if ("message" in isochrone) {
        ctx.addIssue({ code: "custom", path: [isochrone.param], message: isochrone.message });
        return z.NEVER;
      }
      return { ...rest, shape: undefined, isochrone };
    }
    if (input.mode !== undefined) {
      ctx.addIssue({ code: "custom", path: ["mode"], message: "is only for isochrone geofences" });
      return z.NEVER;
    }
    const result =
      input.type === "circle"
        ? circleShape(input.coordinates, input.radius)
        : polygonShape(input.coordinates);
    if (!result.ok) {
      ctx.addIssue({ code: "custom", path: result.path, message: result.message });
      return z.NEVER;
    }
    return { ...rest, shape: result.shape as Shape | undefined, isochrone: undefined };
  });

/** An isochrone geofence as asked: the area reachable within `minutes` by `mode` from `center`. */
export interface IsochroneRequest {
  center: Position;
  minutes: number;
  mode: (typeof ISOCHRONE_MODES)[number];
}

function isochroneRequest(
  coordinates: unknown,
  radius: number | undefined,
  mode: IsochroneRequest["mode"] | undefined,
): IsochroneRequest | { param: string; message: string } {
  const center = asPosition(coordinates);
  if (typeof center === "string") return { param: "coordinates", message: `an isochrone's center ${center}` };
  const { min, max } = LIMITS.isochroneMinutes;
  if (radius === undefined)
    return { param: "radius", message: `is required for an isochrone: minutes of travel, ${min} to ${max}` };
  if (radius < min || radius > max)
    return { param: "radius", message: `must be between ${min} and ${max} minutes for an isochrone` };
  return { center, minutes: radius, mode: mode ?? "car" };
}

export type GeofenceWrite = z.output<typeof geofenceWriteSchema>;

/** A write with its shape known: an isochrone's drawn from the roads, and how it was made. */
export type ShapedWrite = Omit<GeofenceWrite, "shape"> & { shape: Shape; making: IsochroneMaking | null };

/**
 * A partial update: the fields present replace the stored ones (null or "" clears an optional
 * one); the merged geofence is then validated as a whole by geofenceWriteSchema.
 */
export const geofencePatchSchema = z.object({
  description: z.unknown().optional(),
  type: z.unknown().optional(),
  mode: z.unknown().optional(),
  coordinates: z.unknown().optional(),
  radius: z.unknown().optional(),
  tag: z.unknown().optional(),
  externalId: z.unknown().optional(),
  metadata: z.unknown().optional(),
  enabled: z.unknown().optional(),
  dwellThreshold: z.unknown().optional(),
  userIds: z.unknown().optional(),
  stopDetection: z.unknown().optional(),
  disableAfter: z.unknown().optional(),
  deleteAfter: z.unknown().optional(),
});

export type GeofencePatch = z.output<typeof geofencePatchSchema>;

/** The tag and externalId in a path, held to the same rules as in a body. */
export const tagRefSchema = z.object({ tag: requiredString(256), externalId: requiredString(256) });

/** Column values for a validated write (identity and timestamps are added by the caller). */
export function geofenceColumns(input: ShapedWrite): GeofenceColumns {
  const s: Shape = input.shape;
  return {
    description: input.description,
    tag: input.tag ?? null,
    externalId: input.externalId ?? null,
    type: s.type,
    geometry: [s.ring],
    centerLng: s.center[0],
    centerLat: s.center[1],
    radius: s.radius,
    minLng: s.bbox.minLng,
    minLat: s.bbox.minLat,
    maxLng: s.bbox.maxLng,
    maxLat: s.bbox.maxLat,
    metadata: input.metadata ?? undefined,
    enabled: input.enabled ?? true,
    dwellThreshold: input.dwellThreshold ?? null,
    userIds: input.userIds ?? null,
    stopDetection: input.stopDetection ?? false,
    disableAfter: input.disableAfter ?? null,
    deleteAfter: input.deleteAfter ?? null,
    isochrone: input.making,
  };
}

export const LIST_LIMIT = { min: 1, max: 1000, default: 100 } as const;

export const listQuerySchema = withMetadataFilter({
  limit: intIn(LIST_LIMIT.min, LIST_LIMIT.max, LIST_LIMIT.default),
  tag: optionalString(256),
  externalId: optionalString(256),
  createdBefore: cursorDate,
  createdAfter: cursorDate,
  updatedBefore: cursorDate,
  updatedAfter: cursorDate,
  /** only geofences whose description, tag or external ID contains this text (any case) */
  search: optionalString(100),
  /** only geofences whose bounding box meets this view (the dashboard's map) */
  bounds: viewBounds,
});

export const SEARCH = {
  radius: { min: 100, max: 10_000, default: 1000 },
  limit: { min: 1, max: 1000, default: 100 },
} as const;

/**
 * A track's `nearbyGeofences` (the SDKs' geofence sync): how many (`nearbyGeofencesLimit`; 0 or
 * absent is the default: Android's continuous preset sends 0, iOS sends none) and how far.
 */
export const NEARBY = { limit: { max: 100, default: 10 }, radius: 10_000 } as const;

export const searchQuerySchema = withMetadataFilter({
  near: coordinatePair,
  radius: intIn(SEARCH.radius.min, SEARCH.radius.max, SEARCH.radius.default),
  tags: commaList,
  limit: intIn(SEARCH.limit.min, SEARCH.limit.max, SEARCH.limit.default),
  includeGeometry: booleanish.optional().default(true),
});

/** The geofence as stored (its JSON columns decoded). */
export type GeofenceRecord = StoredGeofence;
export type { GeofenceFields };

export function ringOf(g: Pick<GeofenceRecord, "geometry">): Position[] {
  return ((g.geometry as Position[][] | null)?.[0] ?? []) as Position[];
}

/**
 * The wire form of a geofence. Embedded copies (in users, events, context) omit geometry and
 * `userIds`, as does every answer to a publishable key (`withUserIds: false`): whom a geofence is
 * for names users, and a publishable key is public (docs/security.md).
 */
export function serializeGeofence(
  g: GeofenceFields & { isochrone?: unknown },
  opts: { includeGeometry?: boolean; withUserIds?: boolean } = {},
) {
  const making = g.isochrone as IsochroneMaking | null | undefined;
  return {
    _id: g.id,
    createdAt: g.createdAt.toISOString(),
    updatedAt: g.updatedAt.toISOString(),
    live: g.live,
    description: g.description,
    ...(g.tag !== null && { tag: g.tag }),
    ...(g.externalId !== null && { externalId: g.externalId }),
    type: g.type,
    ...(opts.includeGeometry !== false && { geometry: { type: "Polygon", coordinates: g.geometry } }),
    geometryCenter: { type: "Point", coordinates: [g.centerLng, g.centerLat] },
    geometryRadius: g.radius,
    ...(making && { isochrone: { mode: making.mode, minutes: making.minutes } }),
    ...(g.metadata !== null && g.metadata !== undefined && { metadata: g.metadata }),
    enabled: g.enabled,
    ...(g.dwellThreshold !== null && { dwellThreshold: g.dwellThreshold }),
    ...(opts.withUserIds !== false &&
      g.userIds !== null &&
      g.userIds !== undefined && { userIds: g.userIds }),
    ...(g.stopDetection && { stopDetection: true }),
    ...(g.disableAfter && { disableAfter: g.disableAfter.toISOString() }),
    ...(g.deleteAfter && { deleteAfter: g.deleteAfter.toISOString() }),
  };
}
