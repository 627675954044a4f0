import type { ConversionDay, EventStore } from "../../storage/events";
import { prepared, sqlDate } from "./connection";
import { shared } from "./shared-stores";
import { verificationCountsOf } from "./tracking-sql";

export const sqliteEvents: EventStore = {
  ...shared.events,
  async verificationCounts(live, subject, type, band) {
    return verificationCountsOf(live, [{ subject, type, band }])[0]!;
  },
  // createdAt is stored as ISO text in UTC: its first ten characters are the day.
  async conversionsPerDay(live, since) {
    return prepared(
      `SELECT substr("createdAt", 1, 10) AS "day", "type" AS "name", COUNT(*) AS "count",
         COALESCE(SUM(json_extract("metadata", '$.revenue')), 0) AS "revenue"
       FROM "Event" WHERE "live" = ? AND "createdAt" >= ? AND "type" NOT LIKE 'user.%'
       GROUP BY 1, 2 ORDER BY 1, 2`,
    ).all(live ? 1 : 0, sqlDate(since)) as ConversionDay[];
  },
};
