-- Times are stored as they happened: an event's createdAt is the instant of the update that made
-- it and a user's updatedAt the instant of its last update, so several rows of a world may share
-- one. Lists page without splitting a group of equal instants (server/storage/paging.ts) and
-- order a group by id, so the unique indexes that kept the instants distinct make way for the
-- (live, instant, id) ones that sort the lists. Stored times are left as they are.
DROP INDEX IF EXISTS "Event_live_createdAt_key";
DROP INDEX IF EXISTS "User_live_updatedAt_key";
CREATE INDEX "Event_live_createdAt_id_idx" ON "Event"("live", "createdAt", "id");
CREATE INDEX "User_live_updatedAt_id_idx" ON "User"("live", "updatedAt", "id");
