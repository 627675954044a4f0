-- Event and user lists page on createdAt (updatedAt) alone, which the unique indexes on
-- ("live", "createdAt") and ("live", "updatedAt") already order: the indexes with "id" after them
-- only cost a write each, and tracking writes a user and a dense move's dozens of events at
-- every update (docs/performance.md).
DROP INDEX "Event_live_createdAt_id_idx";
DROP INDEX "User_live_updatedAt_id_idx";
