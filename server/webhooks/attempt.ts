import { env } from "../config/env";
import type { AttemptOutcome, ClaimedDelivery, DeliveryWrite } from "../storage/webhook-records";
import { post } from "./post";
import { signatureHeaders } from "./sign";
import { metrics } from "../metrics/metrics.mjs";

/** One attempt at a delivery (a signed POST, answered within TIMEOUT_MS) and the retry schedule after it. */

export const TIMEOUT_MS = 10_000;

/**
 * The retry schedule: 30 s, doubling up to 1 h between tries, given up 24 h after the request
 * was made; WEBHOOKS_RETRY_SCALE multiplies all three (tests and development shorten them).
 */
const FIRST_RETRY_MS = 30_000;
const MAX_RETRY_MS = 3600_000;
const GIVE_UP_MS = 24 * 3600_000;
const scaled = (ms: number) => ms * env().WEBHOOKS_RETRY_SCALE;

/** The most of a response body read (to reuse the connection; it is not kept). */
const RESPONSE_BYTES = 4096;

/** The wait before attempt n + 1 after n failed: 30 s doubling to 1 h, less up to half (jitter). */
export function retryDelay(failedAttempts: number, random = Math.random): number {
  const base = Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, failedAttempts - 1), MAX_RETRY_MS);
  return Math.max(1, Math.round(scaled(base) * (0.5 + random() / 2)));
}

/**
 * One attempt at a delivery: a signed POST (./post.ts checks the address each new connection
 * goes to: DNS can change).
 */
export async function attempt(d: ClaimedDelivery, now = new Date()): Promise<AttemptOutcome> {
  const outcome = await signedPost(d, now);
  const result = outcome.delivered
    ? "delivered"
    : outcome.retryAt === null
      ? "failed"
      : outcome.status === null
        ? "error"
        : "refused";
  metrics.webhookDeliveries.inc({ result });
  if (outcome.delivered) metrics.webhookLag.observe(Math.max(0, Date.now() - d.createdAt.getTime()) / 1000);
  return outcome;
}

async function signedPost(d: ClaimedDelivery, now: Date): Promise<AttemptOutcome> {
  const failed = (status: number | null, error: string): AttemptOutcome => {
    const given = now.getTime() - d.createdAt.getTime() >= scaled(GIVE_UP_MS);
    return {
      delivered: false,
      status,
      error,
      retryAt: given ? null : new Date(now.getTime() + retryDelay(d.attempts + 1)),
    };
  };
  try {
    const headers = {
      "content-type": "application/json",
      "user-agent": "open-location-platform-webhooks/1",
      ...signatureHeaders(d.token, d, now),
    };
    const { status } = await post(new URL(d.url), d.body, headers, TIMEOUT_MS, RESPONSE_BYTES);
    if (status >= 200 && status < 300) return { delivered: true, status };
    // The status alone: a receiver's body is not kept (read from an internal service, it would
    // tell an admin what lies behind the address).
    return failed(status, `HTTP ${status}`);
  } catch (e) {
    return failed(null, (e as Error).message);
  }
}

/** A request not tried yet, as an attempt takes it (one sent straight from its row has no seq). */
export const notTried = (d: DeliveryWrite, hook: { url: string; token: string }): ClaimedDelivery => ({
  ...d,
  seq: 0,
  status: "pending",
  attempts: 0,
  lastAttemptAt: null,
  lastStatus: null,
  lastError: null,
  deliveredAt: null,
  url: hook.url,
  token: hook.token,
});
