import type { ConversionDay, EventStore } from "../../storage/events";
import { pool } from "./pool";
import { shared } from "./shared-stores";
import { rows } from "./sql";
import { verificationCounts } from "./tracking-sql";

export const postgresEvents: EventStore = {
  ...shared.events,
  verificationCounts: (live, subject, type, band) => verificationCounts(pool(), live, subject, type, band),
  conversionsPerDay: (live, since) =>
    rows<ConversionDay>(
      `SELECT to_char("createdAt" AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS "day", "type" AS "name",
         COUNT(*)::int AS "count", COALESCE(SUM(("metadata"->>'revenue')::float8), 0) AS "revenue"
       FROM "Event" WHERE "live" = $1 AND "createdAt" >= $2 AND "type" NOT LIKE 'user.%'
       GROUP BY 1, 2 ORDER BY 1, 2`,
      [live, since],
    ),
};
