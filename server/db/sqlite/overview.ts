import {
  bucketStart,
  backlogs,
  hourStart,
  type EventsInHour,
  type OverviewStore,
  usersSince,
} from "../../storage/overview";
import { withWriteLock } from "../write-lock";
import { prepared, sqlDate } from "./connection";

const bit = (live: boolean) => (live ? 1 : 0);

/** The SQLite adapter's OverviewStore (see the port for what each figure is). */
export const sqliteOverview: OverviewStore = {
  async trackedUsers(live, since) {
    if (!since.length) return [];
    const earliest = bucketStart(new Date(Math.min(...since.map((d) => d.getTime()))));
    const rows = prepared(
      `SELECT "bucket", SUM("count") AS count FROM "UserCount" WHERE "live" = ? AND "bucket" >= ? GROUP BY "bucket"`,
    ).all(bit(live), sqlDate(earliest)) as { bucket: string; count: number }[];
    return usersSince(
      rows.map((r) => ({ bucket: new Date(r.bucket), count: r.count })),
      since.map(bucketStart),
    );
  },

  async eventsPerHour(live, since) {
    const from = hourStart(since);
    const rows = prepared(
      `SELECT "hour", "type", SUM("count") AS count FROM "EventCount" WHERE "live" = ? AND "hour" >= ?
       GROUP BY "hour", "type" ORDER BY "hour", "type"`,
    ).all(bit(live), sqlDate(from)) as { hour: string; type: string; count: number }[];
    return rows.map((r): EventsInHour => ({ hour: new Date(r.hour), type: r.type, count: r.count }));
  },

  async reviewQueue(live, upTo) {
    // Both from the index of unverified events (the literal 0 lets SQLite use it).
    const count = prepared(
      `SELECT COUNT(*) FROM (SELECT 1 FROM "Event" INDEXED BY "Event_unverified_idx"
       WHERE "live" = ? AND "verification" = 0 LIMIT ?)`,
    )
      .pluck()
      .get(bit(live), upTo) as number;
    const oldest = prepared(
      `SELECT MIN("createdAt") FROM "Event" INDEXED BY "Event_unverified_idx" WHERE "live" = ? AND "verification" = 0`,
    )
      .pluck()
      .get(bit(live)) as string | null;
    return { count, oldest: oldest ? new Date(oldest) : null };
  },

  async trips(live, statuses) {
    if (!statuses.length) return { active: 0, delayed: 0 };
    const row = prepared(
      `SELECT COUNT(*) AS active, COALESCE(SUM("delayMinutes" > 0), 0) AS delayed FROM "Trip"
       WHERE "live" = ? AND "status" IN (${statuses.map(() => "?").join(", ")})`,
    ).get(bit(live), ...statuses) as { active: number; delayed: number };
    return row;
  },

  async webhookBacklogs(failedSince) {
    const pending = prepared(
      `SELECT "webhookSeq", COUNT(*) AS pending, COALESCE(SUM("attempts" > 0), 0) AS retrying,
         MIN("createdAt") AS oldest
       FROM "WebhookDelivery" INDEXED BY "WebhookDelivery_pending_idx" WHERE "status" = 'pending'
       GROUP BY "webhookSeq"`,
    ).all() as { webhookSeq: number; pending: number; retrying: number; oldest: string }[];
    const failed = prepared(
      `SELECT "webhookSeq", COUNT(*) AS failed FROM "WebhookDelivery" INDEXED BY "WebhookDelivery_failed_idx"
       WHERE "status" = 'failed' AND "createdAt" >= ? GROUP BY "webhookSeq"`,
    ).all(sqlDate(failedSince)) as { webhookSeq: number; failed: number }[];
    return backlogs(
      pending.map((p) => ({ ...p, oldest: new Date(p.oldest) })),
      failed,
    );
  },

  async pruneCounts(before) {
    const at = sqlDate(before);
    return withWriteLock(
      async () =>
        prepared(`DELETE FROM "EventCount" WHERE "live" IN (0, 1) AND "hour" < ?`).run(at).changes +
        prepared(`DELETE FROM "UserCount" WHERE "live" IN (0, 1) AND "bucket" < ?`).run(at).changes,
    );
  },
};
