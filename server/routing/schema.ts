import { z } from "zod";
import { type Coordinate, choiceList, coordinatePair, parseCoordinate } from "../http/fields";
import { FLAG_FERRY, FLAG_HIGHWAY, FLAG_TOLL } from "./graph";
import type { AvoidMask } from "./search";

/** The modes the route endpoints take: the road modes and transit (docs/routing.md). */
export const ROUTE_MODES = ["foot", "bike", "car", "transit"] as const;
export type RouteMode = (typeof ROUTE_MODES)[number];
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
  "no-route": "no route between the origin and the destination on the imported roads",
  "origin-far": "no road this mode may use within 1 km of the origin",
  "destination-far": "no road this mode may use within 1 km of the destination",
  transit: "no transit timetables are imported; only the geodesic is known",
} as const;
export const UNITS = ["metric", "imperial"] as const;
export const GEOMETRY = ["linestring", "polyline5", "polyline6"] as const;

const units = z.preprocess(
  (v) => (v === undefined || v === "" ? "metric" : v),
  z.enum(UNITS, { error: () => `must be ${UNITS.join(" or ")}` }),
);

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
});

/** The most cells a matrix may have (origins × destinations). */
export const MAX_MATRIX_CELLS = 625;

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
    if (cells > MAX_MATRIX_CELLS) {
      ctx.addIssue({
        code: "custom",
        path: ["destinations"],
        message: `origins × destinations must be at most ${MAX_MATRIX_CELLS} pairs (here ${q.origins.length} × ${q.destinations.length} = ${cells})`,
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
