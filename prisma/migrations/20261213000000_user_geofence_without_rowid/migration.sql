-- Memberships are stored in their primary key's order (WITHOUT ROWID): a user's memberships sit
-- together, and entering or leaving a geofence writes two b-trees (the key and the geofenceSeq
-- index) instead of three (a rowid table, its key's index and the geofenceSeq index). A dense move
-- enters and leaves about six geofences; it wrote about 27 pages, 3 of them for this table and its
-- key (docs/performance.md). Prisma's model is unchanged (the same columns and key).

DROP TRIGGER "Geofence_members_delete";

CREATE TABLE "new_UserGeofence" (
    "userSeq" INTEGER NOT NULL,
    "geofenceSeq" INTEGER NOT NULL,
    "enteredAt" DATETIME NOT NULL,
    "dwelled" BOOLEAN NOT NULL DEFAULT false,

    PRIMARY KEY ("userSeq", "geofenceSeq")
) WITHOUT ROWID;
INSERT INTO "new_UserGeofence" ("userSeq", "geofenceSeq", "enteredAt", "dwelled")
SELECT "userSeq", "geofenceSeq", "enteredAt", "dwelled" FROM "UserGeofence";
DROP TABLE "UserGeofence";
ALTER TABLE "new_UserGeofence" RENAME TO "UserGeofence";
CREATE INDEX "UserGeofence_geofenceSeq_idx" ON "UserGeofence"("geofenceSeq");

-- Deleting a geofence takes its users out of it in the same statement.
CREATE TRIGGER "Geofence_members_delete" AFTER DELETE ON "Geofence" BEGIN
    DELETE FROM "UserGeofence" WHERE "geofenceSeq" = OLD."seq";
END;
