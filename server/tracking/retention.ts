import { env } from "../config/env";
import { processOnce } from "../process-once";
import { storage } from "../storage";
import { log } from "../log/logger.mjs";

/**
 * Retention (docs/deployment.md#retention): users' location trails are kept TRAIL_DAYS (30 by
 * default) and SDK log lines LOG_DAYS (7); every app process prunes what is older in the
 * background, in batches of BATCH rows, each its own short change with a pause between, so that
 * tracking never waits long behind it. It looks every minute, or more often when a window is
 * shorter than ten minutes (a tenth of it); the overview's counts of events and users are kept a
 * week. The same pass marks trips past their expiresAt
 * expired (docs/trips.md), so a trip whose user stopped reporting does not run for ever.
 */

const BATCH = 1000;
/** The overview's counts of events and users are kept this long (the page shows a day). */
const COUNT_DAYS = 7;
const DAY_MS = 86_400_000;

const state = processOnce("retention", () => ({ started: false }));

/** Prunes until a batch comes back short; how many rows went. */
async function drain(prune: (before: Date, batch: number) => Promise<number>, windowDays: number) {
  let total = 0;
  for (;;) {
    const gone = await prune(new Date(Date.now() - windowDays * DAY_MS), BATCH);
    total += gone;
    if (gone < BATCH) return total;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** One pass over trails and logs, and over trips past their expiry (marked expired). */
export async function pruneOnce(): Promise<{
  trails: number;
  logs: number;
  expiredTrips: number;
  counts: number;
}> {
  const { TRAIL_DAYS, LOG_DAYS } = env();
  const { retention, trips, overview } = storage();
  return {
    trails: await drain((before, batch) => retention.pruneTrails(before, batch), TRAIL_DAYS),
    logs: await drain((before, batch) => retention.pruneLogs(before, batch), LOG_DAYS),
    expiredTrips: await drain((now, batch) => trips.expire(now, batch), 0),
    // A few dozen rows an hour: one statement.
    counts: await overview.pruneCounts(new Date(Date.now() - COUNT_DAYS * DAY_MS)),
  };
}

/** Starts the background pruning (once per process). */
export function startRetention(): void {
  if (state.started) return;
  state.started = true;
  const { TRAIL_DAYS, LOG_DAYS } = env();
  const every = Math.min(60_000, (Math.min(TRAIL_DAYS, LOG_DAYS) * DAY_MS) / 10);
  const tick = () =>
    pruneOnce()
      .catch((err: unknown) => log.error({ err }, "retention failed"))
      .finally(() => setTimeout(tick, every).unref());
  setTimeout(tick, Math.min(every, 10_000)).unref();
}
