-- Times are stored as they happened: an event's createdAt is the instant of the update that made
-- it and a user's updatedAt the instant of its last update, so several rows of a world may share
-- one. Lists page without splitting a group of equal instants (server/storage/paging.ts), so the
-- unique indexes that kept the instants distinct make way for plain ones on the same columns:
-- they sort the lists (a group of equal instants is ordered by id after the index scan), and an
-- entry without the id keeps each of a dense update's event writes as small as before.
-- Stored times are left as they are.
DROP INDEX IF EXISTS "Event_live_createdAt_key";
DROP INDEX IF EXISTS "User_live_updatedAt_key";
CREATE INDEX "Event_live_createdAt_idx" ON "Event"("live", "createdAt");
CREATE INDEX "User_live_updatedAt_idx" ON "User"("live", "updatedAt");
