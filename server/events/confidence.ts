/**
 * The confidence model (docs/confidence.md). Pure functions: geometry gives the probability
 * that the user is inside a geofence (../geofences/inside.ts); verifications of earlier events of the same class update
 * the estimated precision of that class (Beta-Bernoulli); the estimate decides confidence.
 */

/** Events at least this sure from geometry are "core"; the rest happened near the boundary. */
export const CORE_AT = 0.95;
/**
 * How many verified events the prior (geometry, or place detection) is worth in the estimate of
 * a class's precision: four, so a handful of verdicts moves it and many dominate it.
 */
export const PRIOR_WEIGHT = 4;

export type Confidence = 1 | 2 | 3;
export type Band = "core" | "edge";

export const bandOf = (p: number): Band => (p >= CORE_AT ? "core" : "edge");

/**
 * The estimated precision of a class of events (one geofence, event type and band; one place;
 * one region): the mean of a Beta posterior whose prior has mean `p` and weight PRIOR_WEIGHT,
 * after `accepted` and `rejected` verdicts on the class's earlier events. Unlike a shift in
 * log-odds, it reaches any value: p = 1 (a fix wholly inside) falls to 0.8 after one rejection.
 */
export function estimatedPrecision(p: number, accepted: number, rejected: number): number {
  return (PRIOR_WEIGHT * p + accepted) / (PRIOR_WEIGHT + accepted + rejected);
}

/** Place detections are graded on their own scale: the share among candidates (docs/confidence.md). */
export function confidenceOfPlace(p: number): Confidence {
  return p >= 0.8 ? 3 : p >= 0.5 ? 2 : 1;
}

/** The confidence an event of this type gets for an estimated precision `p`. */
export const gradeOf = (type: string): ((p: number) => Confidence) =>
  type === "user.entered_place" ? confidenceOfPlace : confidenceOf;

export function confidenceOf(p: number): Confidence {
  return p >= CORE_AT ? 3 : p >= 0.7 ? 2 : 1;
}
