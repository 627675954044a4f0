-- The confidence model pools verifications by what an event is about (geofence, place or
-- region), for every kind of event: docs/confidence.md.

-- AlterTable
ALTER TABLE "Event" ADD COLUMN "subject" TEXT;

-- Backfill (server/events/subject.ts)
UPDATE "Event" SET "subject" = CASE
  WHEN "geofenceId" IS NOT NULL THEN 'geofence:' || "geofenceId"
  WHEN "placeId" IS NOT NULL THEN 'place:' || "placeId"
  WHEN "region" IS NOT NULL THEN 'region:' || json_extract("region", '$.type') || ':' ||
    COALESCE(json_extract("region", '$.code'), json_extract("region", '$.name'))
END;

-- DropIndex
DROP INDEX "Event_geofenceId_type_band_verification_idx";

-- CreateIndex
CREATE INDEX "Event_live_subject_type_band_verification_idx" ON "Event"("live", "subject", "type", "band", "verification");
