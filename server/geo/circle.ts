import { type Position, destination } from "./distance";

/** Vertices used to draw a circle as a GeoJSON ring (65 positions with the closing one). */
export const CIRCLE_SEGMENTS = 64;

/** A closed ring approximating the circle, counter-clockwise as GeoJSON prefers. */
export function circleRing(center: Position, radiusMeters: number, segments = CIRCLE_SEGMENTS): Position[] {
  const ring: Position[] = [];
  for (let i = 0; i < segments; i++) {
    ring.push(roundPosition(destination(center[0], center[1], radiusMeters, 360 - (i * 360) / segments)));
  }
  ring.push(ring[0]!);
  return ring;
}

/** 7 decimals is about 1 cm: enough for geofences, and keeps stored JSON compact. */
export function roundPosition([lng, lat]: Position): Position {
  return [Math.round(lng * 1e7) / 1e7, Math.round(lat * 1e7) / 1e7];
}
