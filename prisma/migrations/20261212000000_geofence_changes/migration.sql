-- Tracking keeps the boxes and versions of all geofences in memory (server/db/sqlite/geofence-index.ts)
-- instead of asking the R*Tree at every update. It learns what changed from this table: one row per
-- geofence ever written, holding the number of its last change (inserted, moved, renamed,
-- switched world or deleted), so that each batch of updates reads only the changes since the last
-- one it saw. Numbers only grow; a deleted geofence keeps its row (two integers), so a reader never
-- misses a delete. Kept by triggers on the same columns as the R*Tree's. (Not INSERT OR REPLACE: an
-- upsert of a geofence imposes its own conflict handling on the statements of its triggers.)

CREATE TABLE "GeofenceChange" (
    "seq" INTEGER NOT NULL PRIMARY KEY,
    "n" INTEGER NOT NULL
);
CREATE INDEX "GeofenceChange_n_idx" ON "GeofenceChange"("n");

CREATE TRIGGER "Geofence_change_insert" AFTER INSERT ON "Geofence" BEGIN
    UPDATE "GeofenceChange" SET "n" = (SELECT MAX("n") + 1 FROM "GeofenceChange") WHERE "seq" = NEW."seq";
    INSERT INTO "GeofenceChange" ("seq", "n")
    SELECT NEW."seq", (SELECT COALESCE(MAX("n"), 0) + 1 FROM "GeofenceChange")
    WHERE NOT EXISTS (SELECT 1 FROM "GeofenceChange" WHERE "seq" = NEW."seq");
END;

CREATE TRIGGER "Geofence_change_update"
AFTER UPDATE OF "minLng", "maxLng", "minLat", "maxLat", "live", "updatedAt" ON "Geofence" BEGIN
    UPDATE "GeofenceChange" SET "n" = (SELECT MAX("n") + 1 FROM "GeofenceChange") WHERE "seq" = NEW."seq";
    INSERT INTO "GeofenceChange" ("seq", "n")
    SELECT NEW."seq", (SELECT COALESCE(MAX("n"), 0) + 1 FROM "GeofenceChange")
    WHERE NOT EXISTS (SELECT 1 FROM "GeofenceChange" WHERE "seq" = NEW."seq");
END;

CREATE TRIGGER "Geofence_change_delete" AFTER DELETE ON "Geofence" BEGIN
    UPDATE "GeofenceChange" SET "n" = (SELECT MAX("n") + 1 FROM "GeofenceChange") WHERE "seq" = OLD."seq";
    INSERT INTO "GeofenceChange" ("seq", "n")
    SELECT OLD."seq", (SELECT COALESCE(MAX("n"), 0) + 1 FROM "GeofenceChange")
    WHERE NOT EXISTS (SELECT 1 FROM "GeofenceChange" WHERE "seq" = OLD."seq");
END;
