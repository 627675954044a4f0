import type { Position } from "../geo/distance";
import { ringAreaAndCentroid } from "../geo/polygon";
import type { TrackedGeofence } from "../storage/geofences";
import { signedDistanceToShape } from "./shape";

/**
 * Whether a located user is inside a geofence, given the fix's accuracy (docs/confidence.md):
 * the probability that the location lies inside, and the thresholds that decide entering and
 * leaving. Pure geometry; tracking and the re-check after a geofence changes both use it.
 */

/** A user outside enters when at least half the accuracy circle is inside... */
export const ENTER_AT = 0.5;
/** ...and a user inside leaves only when at most a fifth still is (hysteresis). */
export const EXIT_AT = 0.2;
/** Accuracy below this many meters is treated as this: no fix is a perfect point. */
export const MIN_ACCURACY = 5;

/**
 * The share of the accuracy circle that lies inside the geofence, treating the boundary as a
 * straight line at `signedDistance` meters from the location (positive inside). A geofence
 * smaller than the accuracy circle can hold at most its own area's share of it.
 */
export function insideFraction(signedDistance: number, accuracy: number, geofenceArea = Infinity): number {
  const r = Math.max(accuracy, MIN_ACCURACY);
  const x = signedDistance / r;
  const straight = x >= 1 ? 1 : x <= -1 ? 0 : 1 - (Math.acos(x) - x * Math.sqrt(1 - x * x)) / Math.PI;
  return Math.min(straight, geofenceArea / (Math.PI * r * r));
}

/**
 * A polygon's area by its ring. Tracking meets the same decoded geofences at every update (their
 * rings are shared and never changed, server/geofences/decoded.ts): the area is computed once
 * per ring (it was a visible part of a dense move: docs/performance.md).
 */
const areas = new WeakMap<readonly Position[], number>();
function ringArea(ring: readonly Position[]): number {
  let area = areas.get(ring);
  if (area === undefined) areas.set(ring, (area = ringAreaAndCentroid(ring).area));
  return area;
}

/** The probability that a location with this accuracy lies inside the geofence. */
export function insideProbability(
  g: Pick<TrackedGeofence, "type" | "radius" | "ring" | "centerLng" | "centerLat">,
  lat: number,
  lng: number,
  accuracy: number,
): number {
  const area = g.type === "circle" ? Math.PI * g.radius * g.radius : ringArea(g.ring);
  return insideFraction(signedDistanceToShape(lng, lat, g), accuracy, area);
}
