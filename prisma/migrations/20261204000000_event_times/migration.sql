-- Event times as Radar means them (issue 28): createdAt is when the event happened on the device,
-- actualCreatedAt when the service made it. They were the other way round: swap them (an UPDATE
-- reads every right-hand side before it writes).
UPDATE "Event" SET "createdAt" = "actualCreatedAt", "actualCreatedAt" = "createdAt";

-- Event lists sort and page on createdAt alone, so it is made distinct within each world as the
-- service does for new events: in (createdAt, seq) order, each event at its own time or 1 ms after
-- the one before, whichever is later (i + max over j <= i of (t_j - j), in whole milliseconds).
CREATE TABLE "_EventTime" AS
WITH "n" AS (
    SELECT "seq", "live", "ms", ROW_NUMBER() OVER (PARTITION BY "live" ORDER BY "ms", "seq") AS "i"
    FROM (SELECT "seq", "live", CAST(ROUND((julianday("createdAt") - 2440587.5) * 86400000) AS INTEGER) AS "ms" FROM "Event")
)
SELECT "seq", "ms", "i" + MAX("ms" - "i") OVER (PARTITION BY "live" ORDER BY "i" ROWS UNBOUNDED PRECEDING) AS "at"
FROM "n";
DELETE FROM "_EventTime" WHERE "at" = "ms";
UPDATE "Event"
SET "createdAt" = (
    SELECT strftime('%Y-%m-%dT%H:%M:%S', "at" / 1000, 'unixepoch') || '.' || printf('%03d', "at" % 1000) || '+00:00'
    FROM "_EventTime" WHERE "_EventTime"."seq" = "Event"."seq"
)
WHERE "seq" IN (SELECT "seq" FROM "_EventTime");
DROP TABLE "_EventTime";
