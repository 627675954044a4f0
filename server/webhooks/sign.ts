import { createHmac, randomBytes } from "node:crypto";
import { newId } from "../storage/ids";

/**
 * The two signatures every request carries (docs/webhooks.md#verifying), both keyed with the
 * webhook's token as given (a string key):
 * - Radar's: `X-Radar-Signing-Id` (fresh per request: an id shaped like Radar's, unique per
 *   process, see ../storage/ids.ts) and `X-Radar-Signature`, the hex HMAC-SHA1 of that id. It
 *   does not cover the body.
 * - Standard Webhooks': `webhook-id` (the delivery's, the same on every attempt),
 *   `webhook-timestamp` (seconds, of this attempt) and `webhook-signature`, `v1,` and the base64
 *   HMAC-SHA256 of `id.timestamp.body`.
 */
export function signatureHeaders(
  token: string,
  delivery: { id: string; body: string },
  at: Date,
  signingId = newId(at.getTime()),
): Record<string, string> {
  const timestamp = String(Math.floor(at.getTime() / 1000));
  const signed = `${delivery.id}.${timestamp}.${delivery.body}`;
  return {
    "x-radar-signing-id": signingId,
    "x-radar-signature": createHmac("sha1", token).update(signingId).digest("hex"),
    "webhook-id": delivery.id,
    "webhook-timestamp": timestamp,
    "webhook-signature": `v1,${createHmac("sha256", token).update(signed).digest("base64")}`,
  };
}

/** A new signing token: shown once at creation, never again. */
export const newToken = () => `whsec_${randomBytes(24).toString("base64url")}`;
