import { z } from "zod";
import { DateTime } from "luxon";
import { type Coordinate, booleanish, choiceList, coordinatePair, parseCoordinate } from "../http/fields";
import { FLAG_FERRY, FLAG_HIGHWAY, FLAG_TOLL } from "./graph";
import type { Mode } from "./profiles";
import type { AvoidMask } from "./search";
import { MAX_OPTIMIZE_LOCATIONS } from "./optimize";
import { ISOCHRONE_MINUTES } from "./isochrone";
import { INSTRUCTION_LANGUAGES } from "./instructions";
import type { TracePoint } from "./match";
import { env } from "../config/env";

/**
 * The modes the route endpoints take: the road modes and transit (docs/routing.md), and the two
 * Radar's SDKs also send, truck and motorbike, which are answered by the car profile (no vehicle
 * dimensions, weights or motorbike rules are modelled).
 */
export const ROUTE_MODES = ["foot", "bike", "car", "truck", "motorbike", "transit"] as const;
export type RouteMode = (typeof ROUTE_MODES)[number];

/** The modes a route over the roads takes (all but transit). */
export const ROAD_MODES = ["foot", "bike", "car", "truck", "motorbike"] as const;

/** The road profile a road mode is routed with. */
export const profileOf = (mode: Exclude<RouteMode, "transit">): Mode =>
  mode === "truck" || mode === "motorbike" ? "car" : mode;
export const AVOID = ["tolls", "highways", "ferries"] as const;

const AVOID_FLAGS: Record<(typeof AVOID)[number], number> = {
  tolls: FLAG_TOLL,
  highways: FLAG_HIGHWAY,
  ferries: FLAG_FERRY,
};

/** The `avoid` parameter as the search's mask of edge flags. */
export const avoidMask = (avoid: readonly (typeof AVOID)[number][] = []): AvoidMask =>
  avoid.reduce((mask, a) => mask | AVOID_FLAGS[a], 0);

/** Why a mode has no answer, as the route endpoints say it (`{unavailable}`). */
export const UNAVAILABLE = {
  "no-roads":
    "no imported roads near the origin and the destination (npm run import); only the geodesic is known",
  /** isochrones, map matching and directions, which have no geodesic to give */
  "no-roads-here": "no imported roads there (npm run import)",
  "no-route": "no route between the origin and the destination on the imported roads",
  "origin-far": "no road this mode may use within 1 km of the origin",
  "destination-far": "no road this mode may use within 1 km of the destination",
  transit: "transit is not answered in matrices: ask GET /v1/route/distance with modes=transit",
  "no-feed":
    "no imported transit timetables serve both the origin and the destination; the walking route is given",
  "no-trip":
    "no transit trip serves this journey within a day of the departure time; the walking route is given",
} as const;
export const UNITS = ["metric", "imperial"] as const;
export const GEOMETRY = ["linestring", "polyline5", "polyline6"] as const;

const units = z.preprocess(
  (v) => (v === undefined || v === "" ? "metric" : v),
  z.enum(UNITS, { error: () => `must be ${UNITS.join(" or ")}` }),
);

/** A road mode, car when absent (optimize, directions, isochrones, match). */
const roadMode = z.preprocess(
  (v) => (v === undefined || v === "" ? "car" : v),
  z.enum(ROAD_MODES, { error: () => `must be one of ${ROAD_MODES.join(", ")}` }),
);

/** How a line is answered, an encoded polyline of 6 digits when absent (optimize, directions, match). */
const lineForm = z.preprocess(
  (v) => (v === undefined || v === "" ? "polyline6" : v),
  z.enum(GEOMETRY, { error: () => `must be ${GEOMETRY.join(", ")}` }),
);

/**
 * When a transit trip leaves: an ISO 8601 date and time, with an offset (an instant) or without
 * one (the local time of the feed that answers: GTFS times are the agency's).
 */
export type Departure = { at: number } | { local: string };

const departureTime = z.string().transform((v, ctx): Departure => {
  const text = v.trim();
  const shape = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;
  const parsed = DateTime.fromISO(text, { setZone: true });
  if (!shape.test(text) || !parsed.isValid) {
    ctx.addIssue({
      code: "custom",
      message:
        "must be an ISO 8601 date and time, like 2026-11-23T08:30 (the feed's local time) or 2026-11-23T16:30:00Z",
    });
    return z.NEVER;
  }
  return /(Z|[+-]\d{2}:?\d{2})$/.test(text) ? { at: parsed.toSeconds() } : { local: text };
});

/** GET /v1/route/distance */
export const distanceQuery = z.object({
  origin: coordinatePair,
  destination: coordinatePair,
  modes: choiceList(ROUTE_MODES).refine((m) => m !== undefined, `is required: ${ROUTE_MODES.join(", ")}`),
  units,
  avoid: choiceList(AVOID),
  geometry: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.enum(GEOMETRY, { error: () => `must be ${GEOMETRY.join(", ")}` }).optional(),
  ),
  departureTime: departureTime.optional(),
  details: z.preprocess((v) => (v === "" || v === undefined ? false : v), booleanish),
});

/** The most cells a matrix may have (origins × destinations): Radar's 625, or ROUTE_MATRIX_MAX_CELLS. */
const maxMatrixCells = () => env().ROUTE_MATRIX_MAX_CELLS;

/** "lat,lng|lat,lng|…": one or more coordinates. */
const coordinateList = z
  .string({ error: () => "is required, as '<lat>,<lng>|<lat>,<lng>|…'" })
  .transform((v, ctx): Coordinate[] => {
    const out: Coordinate[] = [];
    const parts = v.split("|");
    for (const [i, part] of parts.entries()) {
      const c = parseCoordinate(part);
      if (typeof c === "string") {
        ctx.addIssue({ code: "custom", message: parts.length > 1 ? `point ${i + 1}: ${c}` : c });
        return z.NEVER;
      }
      out.push(c);
    }
    return out;
  });

/** GET /v1/route/matrix */
export const matrixQuery = z
  .object({
    origins: coordinateList,
    destinations: coordinateList,
    mode: z.enum(ROUTE_MODES, { error: () => `is required: one of ${ROUTE_MODES.join(", ")}` }),
    units,
    avoid: choiceList(AVOID),
  })
  .superRefine((q, ctx) => {
    const cells = q.origins.length * q.destinations.length;
    const most = maxMatrixCells();
    if (cells > most) {
      ctx.addIssue({
        code: "custom",
        path: ["destinations"],
        message: `origins × destinations must be at most ${most} pairs (here ${q.origins.length} × ${q.destinations.length} = ${cells})`,
      });
    }
  });

/**
 * The point of a request that lies among the imported roads but more than 1 km from any road the
 * modes asked may use (docs/api.md#route-distance): the request's error, naming it; undefined
 * when some mode could start and end.
 */
export function farPoint(results: readonly object[]): "origin" | "destination" | undefined {
  if (!results.length) return undefined;
  for (const side of ["origin", "destination"] as const) {
    if (results.every((r) => "unrouted" in r && r.unrouted === `${side}-far`)) return side;
  }
  return undefined;
}

/** GET /v1/route/optimize: 2 to 10 locations, the first where the trip starts, the last where it ends. */
export const optimizeQuery = z.object({
  locations: coordinateList.refine(
    (l) => l.length >= 2 && l.length <= MAX_OPTIMIZE_LOCATIONS,
    `must be 2 to ${MAX_OPTIMIZE_LOCATIONS} points, '<lat>,<lng>|<lat>,<lng>|…' (the first where the trip starts, the last where it ends)`,
  ),
  mode: roadMode,
  units,
  avoid: choiceList(AVOID),
  geometry: lineForm,
});

/** The most contours one isochrone request draws. */
export const MAX_ISOCHRONE_CONTOURS = 4;

/** GET /v1/route/isochrone: a point, a mode, and up to 4 travel times in minutes (1 to 60). */
export const isochroneQuery = z.object({
  origin: coordinatePair,
  mode: roadMode,
  minutes: z
    .string({ error: () => "is required: up to 4 travel times in minutes, '5,10,15'" })
    .transform((v, ctx) => {
      const parts = v.split(",").map((p) => p.trim());
      const { min, max } = ISOCHRONE_MINUTES;
      const values = parts.map(Number);
      if (parts.some((p) => !/^\d+(\.\d+)?$/.test(p)) || values.some((m) => m < min || m > max)) {
        ctx.addIssue({
          code: "custom",
          message: `must be travel times in minutes from ${min} to ${max}, '5,10,15'`,
        });
        return z.NEVER;
      }
      const distinct = [...new Set(values)].sort((a, b) => a - b);
      if (distinct.length > MAX_ISOCHRONE_CONTOURS) {
        ctx.addIssue({ code: "custom", message: `must be at most ${MAX_ISOCHRONE_CONTOURS} travel times` });
        return z.NEVER;
      }
      return distinct;
    }),
  avoid: choiceList(AVOID),
});

/** The most locations directions go through (Radar's): the first, the stops between, the last. */
export const MAX_DIRECTIONS_LOCATIONS = 25;

/** GET /v1/route/directions: 2 to 25 locations in order, a road mode, and how to answer. */
export const directionsQuery = z.object({
  locations: coordinateList.refine(
    (l) => l.length >= 2 && l.length <= MAX_DIRECTIONS_LOCATIONS,
    `must be 2 to ${MAX_DIRECTIONS_LOCATIONS} points in order, '<lat>,<lng>|<lat>,<lng>|…'`,
  ),
  mode: roadMode,
  units,
  avoid: choiceList(AVOID),
  geometry: lineForm,
  alternatives: z.preprocess((v) => (v === "" || v === undefined ? false : v), booleanish),
  lang: z.preprocess(
    (v) => (v === undefined || v === "" ? "en" : v),
    z.string().transform((l, ctx) => {
      const language = instructionLanguage(l);
      if (language) return language;
      ctx.addIssue({ code: "custom", message: `must be one of ${INSTRUCTION_LANGUAGES.join(", ")}` });
      return z.NEVER;
    }),
  ),
});

/** A language tag as the instructions know it: "de", "de-CH" → "de", "pt-br" → "pt-BR"; undefined when none fits. */
function instructionLanguage(tag: string): string | undefined {
  const lower = tag.trim().replace("_", "-").toLowerCase();
  return (
    INSTRUCTION_LANGUAGES.find((c) => c.toLowerCase() === lower) ??
    INSTRUCTION_LANGUAGES.find((c) => c.toLowerCase() === lower.split("-")[0])
  );
}

/** The most points a trace to match may have. */
export const MAX_MATCH_POINTS = 10_000;
export const ROAD_ATTRIBUTES = ["speedLimit", "names", "roadClass"] as const;

/** One point of a trace as an object: `{coordinates: [lng, lat], createdAt?, accuracy?}`. */
const tracePointObject = z.object(
  {
    coordinates: z.tuple(
      [
        z
          .number({ error: () => "longitude must be a number" })
          .min(-180)
          .max(180),
        z
          .number({ error: () => "latitude must be a number" })
          .min(-90)
          .max(90),
      ],
      { error: () => "must be [longitude, latitude]" },
    ),
    createdAt: z.union([z.string(), z.number()]).optional(),
    accuracy: z
      .number({ error: () => "must be a number of meters" })
      .positive("must be more than 0 meters")
      .max(1000, "must be at most 1000 meters")
      .optional(),
  },
  { error: () => "must be {coordinates: [longitude, latitude], accuracy} or '<latitude>,<longitude>'" },
);

/** One point of a trace: `{coordinates: [lng, lat], createdAt?, accuracy?}` or "lat,lng" (accuracy 10 m unless said). */
const tracePoint = z.unknown().transform((v, ctx): TracePoint => {
  if (typeof v === "string") {
    const c = parseCoordinate(v);
    if (typeof c === "string") {
      ctx.addIssue({ code: "custom", message: c });
      return z.NEVER;
    }
    return { lng: c.longitude, lat: c.latitude, accuracy: 10 };
  }
  const r = tracePointObject.safeParse(v);
  if (!r.success) {
    const issue = r.error.issues[0]!;
    ctx.addIssue({ code: "custom", path: issue.path, message: issue.message });
    return z.NEVER;
  }
  return { lng: r.data.coordinates[0], lat: r.data.coordinates[1], accuracy: r.data.accuracy ?? 10 };
});

/** POST /v1/route/match: a trace, a road mode, the road attributes wanted, and how to answer. */
export const matchBody = z.object({
  path: z
    .array(tracePoint, {
      error: () => "is required: an array of points {coordinates: [longitude, latitude], accuracy}",
    })
    .min(2, "must have at least 2 points")
    .max(MAX_MATCH_POINTS, `must have at most ${MAX_MATCH_POINTS} points`),
  mode: roadMode,
  roadAttributes: z.preprocess(
    (v) =>
      typeof v === "string"
        ? v
            .split(",")
            .map((s) => s.trim())
            .filter(Boolean)
        : v,
    z
      .array(z.enum(ROAD_ATTRIBUTES, { error: () => `must be among ${ROAD_ATTRIBUTES.join(", ")}` }))
      .optional()
      .default([]),
  ),
  units,
  geometry: lineForm,
});
