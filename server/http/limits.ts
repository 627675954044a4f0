import { BurstyRateLimiter, RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import type { AuthKey } from "../auth/keys";
import { env } from "../config/env";
import { ApiError } from "../errors";
import { processOnce } from "../process-once";
import { storage } from "../storage";
import { metrics } from "../metrics/metrics.mjs";

/**
 * Rate limits and quotas (docs/security.md#rate-limits), with rate-limiter-flexible's in-memory
 * limiters: no database round trip per request. Each limit is a rate a second with a burst a
 * client may spend beyond it within a minute (a device flushing its offline buffer), set by the
 * RATE_LIMIT_* variables; RATE_LIMITS=off turns them all off.
 *
 * Across app processes: each process counts what it serves, at the cost of a request times the
 * number of app processes alive on the database (their webhook senders, which say so every few
 * seconds), so behind a balancer that spreads a client's requests the limit holds in total.
 */

interface Rate {
  perSecond: number;
  perMinute: number;
}

/** How often the processes alive are counted again. */
const PROCESSES_MS = 5_000;

const alive = processOnce("rate-limit-processes", () => ({
  count: 1,
  at: 0,
  reading: false,
}));

/**
 * The app processes alive on the database now: each says so through its webhook sender, and the
 * one asking counts even before its sender's first word (just started) reached the database.
 */
export async function processesAlive(now: Date): Promise<number> {
  return Math.max(1, await storage().webhooks.sendersAlive(now));
}

/** The app processes alive, as last counted (1 until first counted, and while it cannot be). */
function processes(): number {
  const now = Date.now();
  if (now - alive.at >= PROCESSES_MS && !alive.reading) {
    alive.at = now;
    alive.reading = true;
    processesAlive(new Date(now))
      .then(
        (n) => (alive.count = n),
        () => undefined,
      )
      .finally(() => (alive.reading = false));
  }
  return alive.count;
}

interface Limiter {
  consume(key: string, points: number): Promise<RateLimiterRes>;
}

export class Limit {
  private readonly limiter: Limiter | null;

  constructor(
    /** the limit's name in the metrics (location_rate_limited_total's label) */
    private readonly name: string,
    /** what is limited, in words: "for this device" */
    private readonly what: string,
    private readonly rate: Rate | null,
    /** a quota over a longer window: points per `windowSeconds` instead of a rate */
    windowSeconds?: number,
  ) {
    if (!rate) this.limiter = null;
    else if (windowSeconds)
      this.limiter = new RateLimiterMemory({ points: rate.perSecond, duration: windowSeconds });
    else {
      const steady = new RateLimiterMemory({ points: rate.perSecond, duration: 1 });
      this.limiter = rate.perMinute
        ? new BurstyRateLimiter(steady, new RateLimiterMemory({ points: rate.perMinute, duration: 60 }))
        : steady;
    }
  }

  /** Takes `cost` from `key`'s allowance, or refuses the request (429) when there is not enough. */
  async take(key: string, cost = 1): Promise<void> {
    if (!this.limiter) return;
    try {
      await this.limiter.consume(key, cost * processes());
    } catch (e) {
      if (!(e instanceof RateLimiterRes)) throw e;
      metrics.rateLimited.inc({ limit: this.name });
      throw this.refusal(e);
    }
  }

  private refusal(res: RateLimiterRes): ApiError {
    const rate = this.rate!;
    const seconds = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
    const allowed = rate.perMinute
      ? `${rate.perSecond} a second and ${rate.perMinute} more a minute`
      : `${rate.perSecond}`;
    return new ApiError(
      "rate_limited",
      `too many requests ${this.what} (at most ${allowed}); retry in ${seconds} s`,
      undefined,
      seconds,
      {
        "ratelimit-limit": String(rate.perSecond),
        "ratelimit-remaining": "0",
        "ratelimit-reset": String(seconds),
      },
    );
  }
}

const limits = processOnce("rate-limits", () => {
  const e = env();
  const on = e.RATE_LIMITS === "on";
  return {
    device: new Limit("device", "for this device", on ? e.RATE_LIMIT_DEVICE : null),
    key: new Limit("key", "with this key", on ? e.RATE_LIMIT_KEY : null),
    address: new Limit("address", "without a valid key from this address", on ? e.RATE_LIMIT_ADDRESS : null),
    signIn: new Limit("signIn", "to sign in from this address", on ? e.RATE_LIMIT_SIGN_IN : null),
    logLines: new Limit(
      "logLines",
      "of SDK log lines with this key today",
      on ? { perSecond: e.LOG_LINES_PER_KEY_PER_DAY, perMinute: 0 } : null,
      86_400,
    ),
  };
});

export const limitsFor = () => limits;

/**
 * Takes a request from each identity of the device it names (deviceId, installId, userId; a
 * replay's, from its updates), for a publishable key: a device is limited wherever it appears.
 */
export async function takeDevice(key: AuthKey, body: unknown): Promise<void> {
  if (key.kind !== "publishable") return;
  const ids = new Set<string>();
  const add = (b: unknown) => {
    if (!b || typeof b !== "object") return;
    for (const field of ["deviceId", "installId", "userId"] as const) {
      const v = (b as Record<string, unknown>)[field];
      if (typeof v === "string" && v) ids.add(`${key.live ? "live" : "test"}:${field}:${v}`);
    }
  };
  add(body);
  const replays = (body as { replays?: unknown } | null)?.replays;
  if (Array.isArray(replays)) replays.slice(0, 5).forEach(add);
  for (const id of ids) await limits.device.take(id);
}
