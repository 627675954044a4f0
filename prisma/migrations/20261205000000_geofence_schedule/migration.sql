-- Geofence fields Radar accepts (issue 28): only some users (userIds), entries only when stopped
-- (stopDetection), and a time to be disabled or deleted (disableAfter, deleteAfter) that every app
-- process's sweeper honours (server/geofences/expiry.ts).
ALTER TABLE "Geofence" ADD COLUMN "userIds" JSONB;
ALTER TABLE "Geofence" ADD COLUMN "stopDetection" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "Geofence" ADD COLUMN "disableAfter" DATETIME;
ALTER TABLE "Geofence" ADD COLUMN "deleteAfter" DATETIME;
CREATE INDEX "Geofence_disableAfter_idx" ON "Geofence"("disableAfter");
CREATE INDEX "Geofence_deleteAfter_idx" ON "Geofence"("deleteAfter");
