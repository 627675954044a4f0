import { backlogs, bucketStart, type OverviewStore, usersSince } from "../../storage/overview";
import { row, rows } from "./sql";

/** The PostgreSQL adapter's OverviewStore (see the port for what each figure is). */
export const postgresOverview: OverviewStore = {
  async trackedUsers(live, since) {
    if (!since.length) return [];
    const earliest = bucketStart(new Date(Math.min(...since.map((d) => d.getTime()))));
    const found = await rows<{ bucket: Date; count: number }>(
      `SELECT "bucket", SUM("count")::int AS count FROM "UserCount" WHERE "live" = $1 AND "bucket" >= $2
       GROUP BY "bucket"`,
      [live, earliest],
    );
    return usersSince(found, since.map(bucketStart));
  },

  async eventsPerHour(live, since) {
    return rows<{ hour: Date; type: string; count: number }>(
      `SELECT "hour", "type", SUM("count")::int AS count FROM "EventCount"
       WHERE "live" = $1 AND "hour" >= date_trunc('hour', $2::timestamptz, 'UTC')
       GROUP BY "hour", "type" ORDER BY "hour", "type"`,
      [live, since],
    );
  },

  async reviewQueue(live, upTo) {
    // Both from the index of unverified events (the literal 0 matches its predicate in every plan).
    const found = await row<{ count: number; oldest: Date | null }>(
      `SELECT (SELECT COUNT(*)::int FROM (SELECT 1 FROM "Event" WHERE "live" = $1 AND "verification" = 0 LIMIT $2) q) AS count,
              (SELECT MIN("createdAt") FROM "Event" WHERE "live" = $1 AND "verification" = 0) AS oldest`,
      [live, upTo],
    );
    return { count: found?.count ?? 0, oldest: found?.oldest ?? null };
  },

  async trips(live, statuses) {
    const found = await row<{ active: number; delayed: number }>(
      `SELECT COUNT(*)::int AS active, COUNT(*) FILTER (WHERE "delayMinutes" > 0)::int AS delayed FROM "Trip"
       WHERE "live" = $1 AND "status" = ANY($2::text[])`,
      [live, statuses],
    );
    return found ?? { active: 0, delayed: 0 };
  },

  async webhookBacklogs(failedSince) {
    const [pending, failed] = await Promise.all([
      rows<{ webhookSeq: number; pending: number; retrying: number; oldest: Date }>(
        `SELECT "webhookSeq", COUNT(*)::int AS pending, COUNT(*) FILTER (WHERE "attempts" > 0)::int AS retrying,
           MIN("createdAt") AS oldest
         FROM "WebhookDelivery" WHERE "status" = 'pending' GROUP BY "webhookSeq"`,
      ),
      rows<{ webhookSeq: number; failed: number }>(
        `SELECT "webhookSeq", COUNT(*)::int AS failed FROM "WebhookDelivery"
         WHERE "status" = 'failed' AND "createdAt" >= $1 GROUP BY "webhookSeq"`,
        [failedSince],
      ),
    ]);
    return backlogs(pending, failed);
  },

  async pruneCounts(before) {
    const found = await row<{ n: number }>(
      `WITH e AS (DELETE FROM "EventCount" WHERE "live" IN (true, false) AND "hour" < $1 RETURNING 1),
            u AS (DELETE FROM "UserCount" WHERE "live" IN (true, false) AND "bucket" < $1 RETURNING 1)
       SELECT (SELECT COUNT(*) FROM e)::int + (SELECT COUNT(*) FROM u)::int AS n`,
      [before],
    );
    return found?.n ?? 0;
  },
};
