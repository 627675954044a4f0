import { z } from "zod";
import { choiceList, coordinatePair } from "../http/fields";

/** The modes the route endpoints take: the road modes and transit (docs/routing.md). */
export const ROUTE_MODES = ["foot", "bike", "car", "transit"] as const;
export type RouteMode = (typeof ROUTE_MODES)[number];
export const AVOID = ["tolls", "highways", "ferries"] as const;
export const UNITS = ["metric", "imperial"] as const;

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
});
