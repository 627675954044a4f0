-- Isochrone geofences (issue 32): how the polygon was made (mode, minutes, and the imports it was
-- drawn on, so that it is drawn again when the roads are imported anew), found by type.
ALTER TABLE "Geofence" ADD COLUMN "isochrone" JSONB;
CREATE INDEX "Geofence_type_idx" ON "Geofence"("type");
