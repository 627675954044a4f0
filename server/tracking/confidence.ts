/**
 * The confidence model (docs/confidence.md). Pure functions: geometry gives the probability
 * that the user is inside a geofence; verifications of earlier events at the same kind of spot
 * shift that probability for later events; the probability decides confidence.
 */

/** A user outside enters when at least half the accuracy circle is inside... */
export const ENTER_AT = 0.5;
/** ...and a user inside leaves only when at most a fifth still is (hysteresis). */
export const EXIT_AT = 0.2;
/** Accuracy below this many meters is treated as this: no fix is a perfect point. */
export const MIN_ACCURACY = 5;
/** Events at least this sure from geometry are "core"; the rest happened near the boundary. */
export const CORE_AT = 0.95;
/** How strongly verifications move probabilities (weight of ln(accepted+1 / rejected+1)). */
export const EVIDENCE_WEIGHT = 0.75;

export type Confidence = 1 | 2 | 3;
export type Band = "core" | "edge";

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

export const bandOf = (p: number): Band => (p >= CORE_AT ? "core" : "edge");

const clamp = (p: number) => Math.min(0.999, Math.max(0.001, p));
const logit = (p: number) => Math.log(p / (1 - p));
const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

/** The probability after the verifications of comparable earlier events. */
export function adjustedProbability(p: number, accepted: number, rejected: number): number {
  if (accepted === 0 && rejected === 0) return p;
  return sigmoid(logit(clamp(p)) + EVIDENCE_WEIGHT * Math.log((accepted + 1) / (rejected + 1)));
}

export function confidenceOf(p: number): Confidence {
  return p >= CORE_AT ? 3 : p >= 0.7 ? 2 : 1;
}
