import { circleRing, roundPosition } from "../geo/circle";
import { type BBox, type Position, bboxAround, haversine } from "../geo/distance";
import {
  distanceToRing,
  farthestDistance,
  signedDistanceToRing,
  findSelfIntersection,
  ringAreaAndCentroid,
  ringBBox,
} from "../geo/polygon";

/** Geofence shapes: turning wire coordinates into a stored shape, and measuring against it. */

export const LIMITS = {
  circleRadius: { min: 10, max: 10_000 },
  polygonPositions: { min: 4, max: 2000 },
  /** meters from the polygon's centroid to its farthest vertex */
  polygonRadiusMax: 100_000,
  polygonAreaMin: 1,
  /** an isochrone's travel time (Radar's: 5 to 60 minutes) */
  isochroneMinutes: { min: 5, max: 60 },
} as const;

/** The modes an isochrone geofence is drawn for (truck and motorbike ride the car's roads). */
export const ISOCHRONE_MODES = ["car", "foot", "bike", "truck", "motorbike"] as const;

export interface Shape {
  type: "circle" | "polygon" | "isochrone";
  ring: Position[];
  center: Position;
  radius: number;
  bbox: BBox;
}

/** A failure names the field, and where a position is at fault, its index. */
export type ShapeResult =
  { ok: true; shape: Shape } | { ok: false; path: (string | number)[]; message: string };

const fail = (param: string, message: string, index?: number): ShapeResult => ({
  ok: false,
  path: index === undefined ? [param] : [param, index],
  message,
});

export function asPosition(value: unknown): Position | string {
  if (!Array.isArray(value) || value.length < 2 || value.length > 3) return "must be [longitude, latitude]";
  const [lng, lat] = value as unknown[];
  if (typeof lng !== "number" || !Number.isFinite(lng)) return "longitude must be a number";
  if (typeof lat !== "number" || !Number.isFinite(lat)) return "latitude must be a number";
  if (lng < -180 || lng > 180) return "longitude must be between -180 and 180";
  if (lat < -90 || lat > 90) return "latitude must be between -90 and 90";
  return [lng, lat];
}

export function circleShape(coordinates: unknown, radius: number | undefined): ShapeResult {
  const center = asPosition(coordinates);
  if (typeof center === "string") return fail("coordinates", `a circle's center ${center}`);
  if (radius === undefined) return fail("radius", "is required for a circle (meters)");
  const { min, max } = LIMITS.circleRadius;
  if (radius < min || radius > max) return fail("radius", `must be between ${min} and ${max} meters`);
  const c = roundPosition(center);
  return {
    ok: true,
    shape: {
      type: "circle",
      ring: circleRing(c, radius),
      center: c,
      radius,
      bbox: bboxAround(c[0], c[1], radius),
    },
  };
}

export function polygonShape(coordinates: unknown): ShapeResult {
  if (!Array.isArray(coordinates))
    return fail("coordinates", "a polygon needs an array of [longitude, latitude] positions");
  let raw: unknown[] = coordinates;
  // Also accept GeoJSON Polygon coordinates: an array holding one ring.
  if (Array.isArray(raw[0]) && Array.isArray((raw[0] as unknown[])[0])) {
    if (raw.length > 1)
      return fail("coordinates", "polygons with holes (more than one ring) are not supported");
    raw = raw[0] as unknown[];
  }
  const ring: Position[] = [];
  for (let i = 0; i < raw.length; i++) {
    const p = asPosition(raw[i]);
    if (typeof p === "string") return fail("coordinates", p, i);
    const prev = ring[ring.length - 1];
    const rounded = roundPosition(p);
    if (!prev || prev[0] !== rounded[0] || prev[1] !== rounded[1]) ring.push(rounded);
  }
  const first = ring[0];
  const last = ring[ring.length - 1];
  if (first && last && (first[0] !== last[0] || first[1] !== last[1])) ring.push(first);
  const { min, max } = LIMITS.polygonPositions;
  if (ring.length < min || ring.length > max) {
    return fail(
      "coordinates",
      `a polygon needs ${min} to ${max} positions (closed ring, first = last); got ${ring.length}`,
    );
  }
  for (let i = 0; i < ring.length - 1; i++) {
    if (Math.abs(ring[i + 1]![0] - ring[i]![0]) > 180) {
      return fail("coordinates", "edges may not cross the antimeridian (180° longitude)", i);
    }
  }
  const crossing = findSelfIntersection(ring);
  if (crossing) {
    return fail("coordinates", `the polygon intersects itself (edges ${crossing[0]} and ${crossing[1]})`);
  }
  const { area, centroid } = ringAreaAndCentroid(ring);
  if (area < LIMITS.polygonAreaMin) return fail("coordinates", "the polygon has no area");
  const center = roundPosition(centroid);
  const radius = farthestDistance(center, ring);
  if (radius > LIMITS.polygonRadiusMax) {
    return fail(
      "coordinates",
      `the polygon is too large (at most ${LIMITS.polygonRadiusMax / 1000} km from its center to any corner)`,
    );
  }
  return {
    ok: true,
    shape: { type: "polygon", ring, center, radius: Math.round(radius * 100) / 100, bbox: ringBBox(ring) },
  };
}

/**
 * An isochrone's shape: the polygon drawn from the roads around `center`, held to a polygon's
 * rules, with the center it was drawn from (not the polygon's centroid) and the distance from it
 * to the farthest corner as its radius (what an SDK monitors around it).
 */
export function isochroneShape(ring: Position[], center: Position): ShapeResult {
  const polygon = polygonShape(ring);
  if (!polygon.ok) return polygon;
  const c = roundPosition(center);
  const radius = farthestDistance(c, polygon.shape.ring);
  return {
    ok: true,
    shape: { ...polygon.shape, type: "isochrone", center: c, radius: Math.round(radius * 100) / 100 },
  };
}

/** Stored geometry as the distance functions need it. */
export interface StoredShape {
  type: string;
  centerLng: number;
  centerLat: number;
  radius: number;
  ring: readonly Position[];
}

/** Meters from a point to the geofence's shape: 0 inside it. */
export function distanceToShape(lng: number, lat: number, g: StoredShape): number {
  if (g.type === "circle") return Math.max(0, haversine(lng, lat, g.centerLng, g.centerLat) - g.radius);
  return distanceToRing(lng, lat, g.ring);
}

/** Meters from a point to the shape's boundary: positive inside, negative outside. */
export function signedDistanceToShape(lng: number, lat: number, g: StoredShape): number {
  if (g.type === "circle") return g.radius - haversine(lng, lat, g.centerLng, g.centerLat);
  return signedDistanceToRing(lng, lat, g.ring);
}
