import type { StoredPlace } from "../geodata/feature-records";
import { type PlaceCandidate, distanceToPlace, placeById, placeCandidates } from "../geodata/places";
import { type Confidence, confidenceOfPlace } from "../events/confidence";

/**
 * Place detection for tracked users (docs/confidence.md#place-events). A stopped user is at one
 * of the imported places around its location; each candidate weighs exp(-score / spread), where
 * the score is its distance (areas the user is inside count as a little away, ../geodata/places.ts)
 * and the spread grows with the fix's accuracy. Verdicts on earlier place events within 100 m
 * multiply a candidate's weight by ((for + 1) / (against + 1))²: a reviewer's verifiedPlaceId
 * counts for that place and against the one detected, so the next stop there picks the verified
 * place, even one a little outside the usual reach.
 */

/** Candidates are looked for within the accuracy, at least 30 m and at most 100 m. */
export const MIN_REACH_M = 30;
export const MAX_REACH_M = 100;
/** Verdicts this close to the location steer detection. */
export const VERDICT_RADIUS_M = 100;
/** A user leaves a place when this far from it (beyond its accuracy). */
export const LEAVE_AT_M = 100;
/** Alternatives less likely than this are not listed. */
const MIN_ALTERNATE_P = 0.02;
const MAX_ALTERNATES = 4;

export interface Verdict {
  placeId: string | null;
  verifiedPlaceId: string | null;
  verification: number;
}

export interface Detection {
  place: StoredPlace;
  alternates: StoredPlace[];
  probability: number;
  confidence: Confidence;
}

export const reachOf = (accuracy: number) => Math.min(MAX_REACH_M, Math.max(MIN_REACH_M, accuracy));

/** Votes for and against each place, from verdicts on earlier place events nearby. */
export function tally(verdicts: Verdict[]): Map<string, { for: number; against: number }> {
  const votes = new Map<string, { for: number; against: number }>();
  const vote = (id: string | null, key: "for" | "against") => {
    if (!id) return;
    const v = votes.get(id) ?? { for: 0, against: 0 };
    v[key]++;
    votes.set(id, v);
  };
  for (const v of verdicts) {
    if (v.verifiedPlaceId) {
      vote(v.verifiedPlaceId, "for");
      if (v.placeId !== v.verifiedPlaceId) vote(v.placeId, "against");
    } else if (v.verification === 1) vote(v.placeId, "for");
    else if (v.verification === -1) vote(v.placeId, "against");
  }
  return votes;
}

/**
 * What place detection weighs at a stopped user's fix: the imported places within reach, and
 * those that verdicts nearby name even a little beyond it (read from the imports here; the
 * choice itself, detectPlace, is pure).
 */
export interface PlaceEvidence {
  candidates: PlaceCandidate[];
  verdicts: Verdict[];
}

export function placeEvidence(
  lng: number,
  lat: number,
  accuracy: number,
  verdicts: Verdict[],
): PlaceEvidence {
  const reach = reachOf(accuracy);
  const candidates: PlaceCandidate[] = placeCandidates(lng, lat, reach);
  // A place reviewers verified here counts even a little beyond the usual reach.
  for (const [id, v] of tally(verdicts)) {
    if (v.for <= v.against || candidates.some((c) => c.place.oid === id)) continue;
    const place = placeById(id);
    if (!place) continue;
    const distance = distanceToPlace(lng, lat, place);
    if (distance <= reach + VERDICT_RADIUS_M) candidates.push({ place, distance, score: distance });
  }
  return { candidates, verdicts };
}

/** The place a stopped user is at, with the alternatives; undefined when none is near. */
export function detectPlace(
  accuracy: number,
  { candidates, verdicts }: PlaceEvidence,
): Detection | undefined {
  if (!candidates.length) return undefined;
  const votes = tally(verdicts);
  const spread = Math.max(10, accuracy / 2);
  const weighted = candidates
    .map((c) => {
      const v = votes.get(c.place.oid);
      const evidence = v ? ((v.for + 1) / (v.against + 1)) ** 2 : 1;
      return { place: c.place, w: Math.exp(-c.score / spread) * evidence };
    })
    .sort((a, b) => b.w - a.w || a.place.oid.localeCompare(b.place.oid));
  const total = weighted.reduce((s, c) => s + c.w, 0);
  const probability = total > 0 ? weighted[0]!.w / total : 1 / weighted.length;
  return {
    place: weighted[0]!.place,
    alternates: weighted
      .slice(1)
      .filter((c) => total > 0 && c.w / total >= MIN_ALTERNATE_P)
      .slice(0, MAX_ALTERNATES)
      .map((c) => c.place),
    probability,
    confidence: confidenceOfPlace(probability),
  };
}
