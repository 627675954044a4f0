-- Event times as Radar means them (issue 28): createdAt is when the event happened on the device,
-- actualCreatedAt when the service made it. They were the other way round: swap them (an UPDATE
-- reads every right-hand side before it writes).
UPDATE "Event" SET "createdAt" = "actualCreatedAt", "actualCreatedAt" = "createdAt";

-- Event lists sort and page on createdAt alone, so it is made distinct within each world as the
-- service does for new events: in (createdAt, seq) order, each event at its own time or 1 ms after
-- the one before, whichever is later (i + max over j <= i of (t_j - j)).
WITH "n" AS (
    SELECT "seq", "live", "createdAt",
           ROW_NUMBER() OVER (PARTITION BY "live" ORDER BY "createdAt", "seq") AS "i"
    FROM "Event"
), "s" AS (
    SELECT "seq", "createdAt",
           "i" * INTERVAL '1 millisecond'
             + MAX("createdAt" - "i" * INTERVAL '1 millisecond') OVER (PARTITION BY "live" ORDER BY "i" ROWS UNBOUNDED PRECEDING) AS "at"
    FROM "n"
)
UPDATE "Event" SET "createdAt" = "s"."at"
FROM "s" WHERE "s"."seq" = "Event"."seq" AND "s"."at" <> "s"."createdAt";

-- What tracking relies on when two app processes take an instant at once (the instant locks
-- should prevent it; this refuses the second write, and the update is decided again).
CREATE UNIQUE INDEX "Event_live_createdAt_key" ON "Event" ("live", "createdAt");
