-- The overview page (docs/deployment.md#overview page) asks for figures that must stay cheap
-- however many events there are.
--
-- Events made per hour, by world and type: tracking adds to these counts in the transaction that
-- writes the events, so the chart reads a few dozen rows instead of a day of events. Each writer
-- adds to rows of its own (SQLite has one writer, 0; on PostgreSQL each connection is one), so
-- concurrent transactions never wait on each other for a count. The last two days of events are
-- counted here once.
CREATE TABLE "EventCount" (
    "live" BOOLEAN NOT NULL,
    "hour" DATETIME NOT NULL,
    "type" TEXT NOT NULL,
    "writer" INTEGER NOT NULL,
    "count" INTEGER NOT NULL,

    PRIMARY KEY ("live", "hour", "type", "writer")
) WITHOUT ROWID;
INSERT INTO "EventCount" ("live", "hour", "type", "writer", "count")
SELECT "live", strftime('%Y-%m-%dT%H:00:00.000+00:00', "createdAt"), "type", 0, count(*) FROM "Event"
WHERE "createdAt" >= strftime('%Y-%m-%dT%H:00:00.000+00:00', 'now', '-2 days')
GROUP BY 1, 2, 3;

-- Users per five minutes of their last update, by world: tracking moves a user from the bucket of
-- its previous update to that of this one (when they differ), so "tracked in the last hour" reads a
-- dozen rows instead of every user updated in it. Writers as above. The last two days' users are
-- counted here once.
CREATE TABLE "UserCount" (
    "live" BOOLEAN NOT NULL,
    "bucket" DATETIME NOT NULL,
    "writer" INTEGER NOT NULL,
    "count" INTEGER NOT NULL,

    PRIMARY KEY ("live", "bucket", "writer")
) WITHOUT ROWID;
INSERT INTO "UserCount" ("live", "bucket", "writer", "count")
SELECT "live", strftime('%Y-%m-%dT%H:%M:%S.000+00:00', (CAST(strftime('%s', "updatedAt") AS INTEGER) / 300) * 300, 'unixepoch'),
       0, count(*) FROM "User"
WHERE "updatedAt" >= strftime('%Y-%m-%dT%H:00:00.000+00:00', 'now', '-2 days')
GROUP BY 1, 2;

-- The review queue (unverified events): its size, counted up to a bound, and its oldest event.
-- The index holds only unverified events, in time order; a new event is appended at its end.
CREATE INDEX "Event_unverified_idx" ON "Event"("live", "createdAt") WHERE "verification" = 0;

-- Requests given up (after a day of retries), per webhook and time: few, so the index is small.
CREATE INDEX "WebhookDelivery_failed_idx" ON "WebhookDelivery"("webhookSeq", "createdAt") WHERE "status" = 'failed';
