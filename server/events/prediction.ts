import type { AuthKey } from "../auth/keys";
import { storage } from "../storage";
import { type Confidence, estimatedPrecision, gradeOf } from "./confidence";
import { getEvent } from "./events";

export interface Outcome {
  probability: number;
  confidence: Confidence;
}

/**
 * What the confidence model (docs/confidence.md) will give later events like this one (same
 * class: subject, type and band, with the same prior probability) for each verdict on it: what
 * the review screen shows before a reviewer decides. Null for events about nothing verifiable.
 */
export async function predictConfidence(
  key: AuthKey,
  id: string,
): Promise<{ band: string; unverified: Outcome; accepted: Outcome; rejected: Outcome } | null> {
  const event = await getEvent(key, id);
  if (!event.subject) return null;
  const counts = await storage().events.verificationCounts(key.live, event.subject, event.type, event.band);
  // The others' verdicts: this event's own, if any, is what is being decided.
  const accepted = counts.accepted - (event.verification === 1 ? 1 : 0);
  const rejected = counts.rejected - (event.verification === -1 ? 1 : 0);
  const grade = gradeOf(event.type);
  const outcome = (a: number, r: number): Outcome => {
    const p = estimatedPrecision(event.probability, a, r);
    return { probability: Math.round(p * 1000) / 1000, confidence: grade(p) };
  };
  return {
    band: event.band,
    unverified: outcome(accepted, rejected),
    accepted: outcome(accepted + 1, rejected),
    rejected: outcome(accepted, rejected + 1),
  };
}
