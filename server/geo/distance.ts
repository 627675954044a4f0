/** Pure spherical geometry on WGS84 lng/lat; no I/O, no framework imports. */

export const EARTH_RADIUS_M = 6_371_008.8;
const RAD = Math.PI / 180;

export type Position = [lng: number, lat: number];

export interface LatLng {
  latitude: number;
  longitude: number;
}

/** Great-circle distance in meters (haversine). */
export function haversine(aLng: number, aLat: number, bLng: number, bLat: number): number {
  const dLat = (bLat - aLat) * RAD;
  const dLng = (bLng - aLng) * RAD;
  const s = Math.sin(dLat / 2) ** 2 + Math.cos(aLat * RAD) * Math.cos(bLat * RAD) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(s)));
}

/** The point `meters` away from (lng, lat) along the initial bearing `bearingDeg`. */
export function destination(lng: number, lat: number, meters: number, bearingDeg: number): Position {
  const d = meters / EARTH_RADIUS_M;
  const b = bearingDeg * RAD;
  const φ1 = lat * RAD;
  const λ1 = lng * RAD;
  const φ2 = Math.asin(Math.sin(φ1) * Math.cos(d) + Math.cos(φ1) * Math.sin(d) * Math.cos(b));
  const λ2 =
    λ1 + Math.atan2(Math.sin(b) * Math.sin(d) * Math.cos(φ1), Math.cos(d) - Math.sin(φ1) * Math.sin(φ2));
  return [normalizeLng(λ2 / RAD), φ2 / RAD];
}

export function normalizeLng(lng: number): number {
  return ((((lng + 180) % 360) + 360) % 360) - 180;
}

export interface BBox {
  minLng: number;
  minLat: number;
  maxLng: number;
  maxLat: number;
}

/**
 * A box that contains every point within `meters` of (lng, lat). Near the poles, or when the
 * circle crosses the antimeridian, it widens to all longitudes rather than wrap.
 */
export function bboxAround(lng: number, lat: number, meters: number): BBox {
  const dLat = meters / EARTH_RADIUS_M / RAD;
  const minLat = Math.max(-90, lat - dLat);
  const maxLat = Math.min(90, lat + dLat);
  const cos = Math.cos(Math.max(Math.abs(minLat), Math.abs(maxLat)) * RAD);
  const dLng = cos > 1e-9 ? dLat / cos : 360;
  if (lng - dLng < -180 || lng + dLng > 180) return { minLng: -180, minLat, maxLng: 180, maxLat };
  return { minLng: lng - dLng, minLat, maxLng: lng + dLng, maxLat };
}

/**
 * A flat projection centred on (lng0, lat0), in meters: accurate to well under a percent within
 * the tens of kilometers that geofence search and tracking look at.
 */
export function localProjection(lng0: number, lat0: number): (p: Position) => [number, number] {
  const ky = EARTH_RADIUS_M * RAD;
  const kx = ky * Math.cos(lat0 * RAD);
  return (p) => [(p[0] - lng0) * kx, (p[1] - lat0) * ky];
}
