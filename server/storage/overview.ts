/**
 * The figures of the dashboard's overview page (server/operations/overview.ts), each one query
 * whose cost does not grow with the number of events: counts kept by tracking, indexes that hold
 * only what is asked for, and bounds.
 */

export interface EventsInHour {
  /** the hour's start */
  hour: Date;
  type: string;
  count: number;
}

/** One webhook's requests not yet delivered, and those given up. */
export interface WebhookBacklog {
  webhookSeq: number;
  /** requests waiting (in queues and not yet tried, or retried) */
  pending: number;
  /** of those, tried and refused or unanswered at least once: the receiver is failing */
  retrying: number;
  /** when the oldest waiting request was made (its lag); null: none waits */
  oldestPending: Date | null;
  /** requests given up (after a day of retries) since the bound asked */
  failed: number;
}

export interface OverviewStore {
  /**
   * How many users of a world were updated since each bound, in the bounds' order: from the
   * counts of users per five minutes of their last update, so a bound counts from the start of
   * its five minutes (users deleted since are still counted).
   */
  trackedUsers(live: boolean, since: readonly Date[]): Promise<number[]>;
  /** The events of a world made per hour and type, from the hour holding `since` on. */
  eventsPerHour(live: boolean, since: Date): Promise<EventsInHour[]>;
  /**
   * The unverified events of a world: how many, counted up to `upTo` (a queue longer than that
   * answers `upTo`), and when the oldest was made.
   */
  reviewQueue(live: boolean, upTo: number): Promise<{ count: number; oldest: Date | null }>;
  /** Trips of a world in these statuses, and how many of them run late. */
  trips(live: boolean, statuses: readonly string[]): Promise<{ active: number; delayed: number }>;
  /**
   * The backlog of each webhook (of either world) that has one: requests waiting, and requests
   * made since `failedSince` that were given up.
   */
  webhookBacklogs(failedSince: Date): Promise<WebhookBacklog[]>;
  /** Deletes the counts of events and users before `before`; how many rows went. */
  pruneCounts(before: Date): Promise<number>;
}

/** Each webhook's waiting and given-up requests, one backlog per webhook that has either. */
export function backlogs(
  pending: readonly { webhookSeq: number; pending: number; retrying: number; oldest: Date }[],
  failed: readonly { webhookSeq: number; failed: number }[],
): WebhookBacklog[] {
  const by = new Map<number, WebhookBacklog>();
  const of = (webhookSeq: number) => {
    let b = by.get(webhookSeq);
    if (!b) by.set(webhookSeq, (b = { webhookSeq, pending: 0, retrying: 0, oldestPending: null, failed: 0 }));
    return b;
  };
  for (const p of pending)
    Object.assign(of(p.webhookSeq), { pending: p.pending, retrying: p.retrying, oldestPending: p.oldest });
  for (const f of failed) of(f.webhookSeq).failed = f.failed;
  return [...by.values()].sort((a, b) => a.webhookSeq - b.webhookSeq);
}

/** Users are counted by the five minutes their last update falls in (UserCount's buckets). */
export const USER_BUCKET_MS = 300_000;

const HOUR_MS = 3_600_000;

const floorTo = (ms: number) => (d: Date) => new Date(Math.floor(d.getTime() / ms) * ms);

/** The start of the UTC hour an instant falls in (EventCount's hours). */
export const hourStart = floorTo(HOUR_MS);

/** The start of the five minutes (UserCount's bucket) an instant falls in. */
export const bucketStart = floorTo(USER_BUCKET_MS);

/**
 * How a batch's updates move users between the buckets of their last update: +1 where a user's
 * last update now falls, -1 where it fell before (nothing for an update within its bucket), summed
 * per world and bucket, without zeros.
 */
export function userCountMoves(
  users: readonly ({ live: boolean; updatedBefore: Date | null; write: { updatedAt: Date } } | null)[],
): { live: boolean; bucket: Date; delta: number }[] {
  const moves = new Map<string, { live: boolean; bucket: Date; delta: number }>();
  const add = (live: boolean, at: number, delta: number) => {
    const key = `${live}:${at}`;
    const m = moves.get(key);
    if (m) m.delta += delta;
    else moves.set(key, { live, bucket: new Date(at), delta });
  };
  for (const u of users) {
    if (!u) continue;
    const now = bucketStart(u.write.updatedAt).getTime();
    const before = u.updatedBefore ? bucketStart(u.updatedBefore).getTime() : null;
    if (before === now) continue;
    add(u.live, now, 1);
    if (before !== null) add(u.live, before, -1);
  }
  return [...moves.values()].filter((m) => m.delta !== 0);
}

/** The users counted from each bound on (bounds at the start of a bucket), from the buckets' sums. */
export function usersSince(
  buckets: readonly { bucket: Date; count: number }[],
  bounds: readonly Date[],
): number[] {
  return bounds.map((b) =>
    buckets.reduce((n, r) => (r.bucket.getTime() >= b.getTime() ? n + Number(r.count) : n), 0),
  );
}
