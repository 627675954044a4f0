import { env } from "../config/env";
import type { AttemptOutcome, ClaimedDelivery, FinishedAttempt, WebhookStore } from "../storage";
import { privateAddressOf } from "./address-guard";
import { signatureHeaders } from "./sign";

/**
 * The sender (docs/webhooks.md#delivery): holds due queues of the outbox (one per webhook and
 * user) and posts the first pending request of each, signed, so a user's events arrive in order;
 * then records what happened. A 2xx within TIMEOUT_MS acknowledges; anything else is retried with
 * exponential backoff and jitter for GIVE_UP_MS, then the delivery is failed. It runs on the
 * server's thread (sending is waiting, not computing), never on the tracking thread; every app
 * process runs one, and a claim holds a queue for one sender only.
 */

export const TIMEOUT_MS = 10_000;
/** A hold outlives any attempt: a sender killed mid-attempt lets its queues go after this. */
const HOLD_MS = 30_000;
/**
 * The retry schedule: 30 s, doubling up to 1 h between tries, given up 24 h after the request
 * was made; WEBHOOKS_RETRY_SCALE multiplies all three (tests and development shorten them).
 */
const FIRST_RETRY_MS = 30_000;
const MAX_RETRY_MS = 3600_000;
const GIVE_UP_MS = 24 * 3600_000;
const scaled = (ms: number) => ms * env().WEBHOOKS_RETRY_SCALE;
/** Requests in flight at once per process, and per webhook (a slow receiver holds only its own). */
const IN_FLIGHT = 64;
const IN_FLIGHT_PER_WEBHOOK = 32;
/** How often the outbox is looked at (the outcomes of the attempts since are recorded first). */
const POLL_MS = 50;
/** The most of a response body read (it is only kept for the dashboard). */
const RESPONSE_BYTES = 4096;
/** How often, and how many at a time, deliveries older than WEBHOOKS_KEEP_DAYS are removed. */
const PRUNE_EVERY_MS = 60_000;
const PRUNE_BATCH = 5_000;

/** The wait before attempt n + 1 after n failed: 30 s doubling to 1 h, less up to half (jitter). */
export function retryDelay(failedAttempts: number, random = Math.random): number {
  const base = Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, failedAttempts - 1), MAX_RETRY_MS);
  return Math.max(1, Math.round(scaled(base) * (0.5 + random() / 2)));
}

/** One attempt at a delivery: the address checked again (DNS can change), then a signed POST. */
export async function attempt(d: ClaimedDelivery, now = new Date()): Promise<AttemptOutcome> {
  const failed = (status: number | null, error: string): AttemptOutcome => {
    const given = now.getTime() - d.createdAt.getTime() >= scaled(GIVE_UP_MS);
    return {
      delivered: false,
      status,
      error,
      retryAt: given ? null : new Date(now.getTime() + retryDelay(d.attempts + 1)),
    };
  };
  const refused = await privateAddressOf(new URL(d.url));
  if (refused) return failed(null, refused);
  try {
    const res = await fetch(d.url, {
      method: "POST",
      body: d.body,
      redirect: "manual",
      signal: AbortSignal.timeout(TIMEOUT_MS),
      headers: {
        "content-type": "application/json",
        "user-agent": "open-location-platform-webhooks/1",
        ...signatureHeaders(d.token, d, now),
      },
    });
    const text = await readSome(res);
    if (res.status >= 200 && res.status < 300) return { delivered: true, status: res.status };
    return failed(res.status, `HTTP ${res.status}${text ? `: ${text.slice(0, 200)}` : ""}`);
  } catch (e) {
    const error = e as Error & { cause?: { code?: string } };
    return failed(
      null,
      error.name === "TimeoutError"
        ? `no answer within ${TIMEOUT_MS / 1000} s`
        : (error.cause?.code ?? error.message),
    );
  }
}

/** At most RESPONSE_BYTES of a response's body, the rest left unread. */
async function readSome(res: Response): Promise<string> {
  if (!res.body) return "";
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size < RESPONSE_BYTES) {
    const { value, done } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.length;
  }
  await reader.cancel().catch(() => {});
  return Buffer.concat(chunks).subarray(0, RESPONSE_BYTES).toString("utf8");
}

/** The process's sender: polls the outbox and keeps up to IN_FLIGHT attempts going. */
export class Sender {
  private inFlight = new Map<number, number>();
  private total = 0;
  private timer: NodeJS.Timeout | null = null;
  private looking = false;
  private prunedAt = 0;
  /** attempts ended since the last look: recorded together, in one transaction */
  private done: FinishedAttempt[] = [];

  constructor(
    private store: WebhookStore,
    private send: (d: ClaimedDelivery) => Promise<AttemptOutcome> = attempt,
  ) {}

  start() {
    if (!this.timer) this.timer = setInterval(() => void this.look(), POLL_MS);
    this.timer.unref?.();
  }

  stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Records the attempts that ended, then holds what is due and free, and starts sending it. */
  async look() {
    if (this.looking) return;
    this.looking = true;
    try {
      const now = new Date();
      const done = this.done.splice(0);
      try {
        await this.store.finishMany(done, now);
      } catch (e) {
        // Kept for the next look: their queues stay held (and unsent) until recorded.
        this.done.unshift(...done);
        throw e;
      }
      if (now.getTime() - this.prunedAt >= PRUNE_EVERY_MS) {
        this.prunedAt = now.getTime();
        const keep = env().WEBHOOKS_KEEP_DAYS * 24 * 3600_000;
        await this.store.prune(new Date(now.getTime() - keep), PRUNE_BATCH);
      }
      if (this.total >= IN_FLIGHT) return;
      const claimed = await this.store.claimDue(
        now,
        new Date(now.getTime() + HOLD_MS),
        IN_FLIGHT - this.total,
        (webhookSeq) => IN_FLIGHT_PER_WEBHOOK - (this.inFlight.get(webhookSeq) ?? 0),
      );
      for (const d of claimed) void this.run(d);
    } catch (e) {
      console.error(`webhooks: ${(e as Error).message}`);
    } finally {
      this.looking = false;
    }
  }

  private async run(d: ClaimedDelivery) {
    this.total++;
    this.inFlight.set(d.webhookSeq, (this.inFlight.get(d.webhookSeq) ?? 0) + 1);
    try {
      const outcome = await this.send(d);
      this.done.push({ delivery: d, at: new Date(), outcome });
    } catch (e) {
      console.error(`webhooks: delivery ${d.id}: ${(e as Error).message}`);
    } finally {
      this.total--;
      this.inFlight.set(d.webhookSeq, this.inFlight.get(d.webhookSeq)! - 1);
    }
  }
}
