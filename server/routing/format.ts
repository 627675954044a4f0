/**
 * Distances and durations as the route endpoint answers them (wire contract): `value` in meters
 * (metric) or feet (imperial), and minutes; `text` as Radar writes it ("850 m", "3.2 km",
 * "500 ft", "2.0 mi", "9 min", "1 hr 38 min").
 */

import type { Position } from "../geo/distance";
import { encodePolyline } from "./polyline";
import { maxspeedLimits } from "./profiles";

export type Units = "metric" | "imperial";

const FEET_PER_METER = 3.280839895;
const FEET_PER_MILE = 5280;

export function distanceOf(meters: number, units: Units): { value: number; text: string } {
  if (units === "imperial") {
    const feet = meters * FEET_PER_METER;
    const text =
      feet < 0.1 * FEET_PER_MILE
        ? `${Math.round(feet / 10) * 10} ft`
        : `${(feet / FEET_PER_MILE).toFixed(1)} mi`;
    return { value: Math.round(feet * 10) / 10, text };
  }
  const text = meters < 1000 ? `${Math.round(meters)} m` : `${(meters / 1000).toFixed(1)} km`;
  return { value: Math.round(meters * 10) / 10, text };
}

export function durationOf(seconds: number): { value: number; text: string } {
  const minutes = seconds / 60;
  // Nothing to travel is 0 min; any travel at least 1 min.
  const whole = seconds <= 0 ? 0 : Math.max(1, Math.round(minutes));
  const text =
    whole < 60 ? `${whole} min` : `${Math.floor(whole / 60)} hr${whole % 60 ? ` ${whole % 60} min` : ""}`;
  return { value: Math.round(minutes * 10) / 10, text };
}

/** A route's line as asked: GeoJSON (`[lng, lat]`, six decimals), or an encoded polyline of 5 or 6 digits. */
export function geometryOf(path: Position[], form: "linestring" | "polyline5" | "polyline6") {
  const rounded = path.map(
    ([lng, lat]) => [Math.round(lng * 1e6) / 1e6, Math.round(lat * 1e6) / 1e6] as Position,
  );
  if (form === "linestring") return { type: "LineString", coordinates: rounded };
  return { polyline: encodePolyline(rounded, form === "polyline5" ? 5 : 6) };
}

/**
 * A road's speed limit from its `maxspeed` tag as the wire says it: `{value, unit}` in the unit
 * tagged ("50" is km/h, "30 mph"; the first of "50;30"); undefined when untagged or not a number.
 */
export const speedLimitOf = (maxspeed: string) => maxspeedLimits(maxspeed)[0];
