import { env } from "../config/env";
import type { AttemptOutcome, ClaimedDelivery, FinishedAttempt, WebhookStore } from "../storage";
import { newId } from "../storage/ids";
import { splitOutbox } from "./outbox";
import { post } from "./post";
import { signatureHeaders } from "./sign";

/**
 * The sender (docs/webhooks.md#delivery): splits what tracking wrote into the outbox into the
 * requests each webhook is owed, holds due queues (one per webhook and user) and posts the first
 * pending request of each, signed, so a user's events arrive in order; then records what
 * happened. A 2xx within TIMEOUT_MS acknowledges; anything else is retried with exponential
 * backoff and jitter for GIVE_UP_MS, then the delivery is failed. It runs on a thread
 * of its own (./sender-thread.ts), neither the server's nor the tracking thread; every app process
 * runs one, and a claim holds a queue for one sender only.
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
/**
 * How often the outbox is looked at (the outcomes of the attempts since are recorded first, and
 * what tracking wrote since is split into requests): every 50 ms when the last look found nothing
 * to do, 5 ms after one that did (under load the sender is a loop that keeps its 64 requests
 * going, not 64 requests per 50 ms).
 */
const POLL_MS = 50;
const BUSY_POLL_MS = 5;
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

/**
 * One attempt at a delivery: a signed POST (./post.ts checks the address each new connection
 * goes to: DNS can change).
 */
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
  try {
    const headers = {
      "content-type": "application/json",
      "user-agent": "open-location-platform-webhooks/1",
      ...signatureHeaders(d.token, d, now),
    };
    const { status, text } = await post(new URL(d.url), d.body, headers, TIMEOUT_MS, RESPONSE_BYTES);
    if (status >= 200 && status < 300) return { delivered: true, status };
    return failed(status, `HTTP ${status}${text ? `: ${text.slice(0, 200)}` : ""}`);
  } catch (e) {
    return failed(null, (e as Error).message);
  }
}

/** The process's sender: polls the outbox and keeps up to IN_FLIGHT attempts going. */
export class Sender {
  private inFlight = new Map<number, number>();
  private total = 0;
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private looking = false;
  private prunedAt = 0;
  /** attempts ended since the last look: recorded together, in one transaction */
  private done: FinishedAttempt[] = [];

  constructor(
    private store: WebhookStore,
    private send: (d: ClaimedDelivery) => Promise<AttemptOutcome> = attempt,
    /** keepAlive: its timer keeps the thread alive (the sender's own thread) */
    private options: { keepAlive?: boolean } = {},
  ) {}

  start() {
    if (this.timer) return;
    const next = (busy: boolean) => {
      if (!this.running) return;
      this.timer = setTimeout(() => void this.look().then(next), busy ? BUSY_POLL_MS : POLL_MS);
      if (!this.options.keepAlive) this.timer.unref?.();
    };
    this.running = true;
    next(false);
  }

  stop() {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /**
   * Records the attempts that ended, then holds what is due and free, and starts sending it.
   * Whether there was anything to do (then the next look comes sooner).
   */
  async look(): Promise<boolean> {
    if (this.looking) return false;
    this.looking = true;
    try {
      const now = new Date();
      if (now.getTime() - this.prunedAt >= PRUNE_EVERY_MS) {
        this.prunedAt = now.getTime();
        const keep = env().WEBHOOKS_KEEP_DAYS * 24 * 3600_000;
        await this.store.prune(new Date(now.getTime() - keep), PRUNE_BATCH);
      }
      const done = this.done.splice(0);
      let claimed: ClaimedDelivery[];
      try {
        claimed = await this.store.turn({
          done,
          now,
          holdUntil: new Date(now.getTime() + HOLD_MS),
          total: IN_FLIGHT - this.total,
          room: (webhookSeq) => IN_FLIGHT_PER_WEBHOOK - (this.inFlight.get(webhookSeq) ?? 0),
          split: (row, webhooks) => splitOutbox(row, webhooks, now, () => newId(now.getTime())),
        });
      } catch (e) {
        // Kept for the next look: their queues stay held (and unsent) until recorded.
        this.done.unshift(...done);
        throw e;
      }
      for (const d of claimed) void this.run(d);
      return done.length > 0 || claimed.length > 0;
    } catch (e) {
      console.error(`webhooks: ${(e as Error).message}`);
      return false;
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
