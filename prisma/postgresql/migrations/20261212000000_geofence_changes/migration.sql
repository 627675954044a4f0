-- Tracking keeps the boxes and versions of all geofences in memory (server/db/geofence-index.ts)
-- instead of asking for the geofences near each position at every batch. It learns what changed
-- from "GeofenceChange": one row per geofence ever written, holding the number of its last change
-- (inserted, moved, renamed, switched world or deleted; a deleted geofence keeps its row), and each
-- batch reads only the changes numbered after the last one it saw.
--
-- The numbers come from one counter row, which every geofence write updates: the row stays locked
-- until that transaction ends, so a number is only handed out after every smaller one is committed
-- (or rolled back). A reader that has seen number n has therefore seen every change up to n, which
-- a sequence would not promise (its numbers commit in any order). Geofence writes of different
-- transactions wait for each other; they are rare and short.

CREATE TABLE "GeofenceChangeCounter" ("id" INTEGER PRIMARY KEY CHECK ("id" = 1), "n" BIGINT NOT NULL);
INSERT INTO "GeofenceChangeCounter" ("id", "n") VALUES (1, 0);

CREATE TABLE "GeofenceChange" ("seq" INTEGER PRIMARY KEY, "n" BIGINT NOT NULL);
CREATE INDEX "GeofenceChange_n_idx" ON "GeofenceChange"("n");

CREATE FUNCTION "Geofence_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  next BIGINT;
BEGIN
  UPDATE "GeofenceChangeCounter" SET "n" = "n" + 1 WHERE "id" = 1 RETURNING "n" INTO next;
  INSERT INTO "GeofenceChange" ("seq", "n")
  VALUES (CASE WHEN TG_OP = 'DELETE' THEN OLD."seq" ELSE NEW."seq" END, next)
  ON CONFLICT ("seq") DO UPDATE SET "n" = EXCLUDED."n";
  RETURN NULL;
END $$;

CREATE TRIGGER "Geofence_changed" AFTER INSERT OR DELETE
  OR UPDATE OF "minLng", "maxLng", "minLat", "maxLat", "live", "updatedAt" ON "Geofence"
  FOR EACH ROW EXECUTE FUNCTION "Geofence_changed"();
