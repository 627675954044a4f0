-- The two indexes that serve the confidence model and place detection hold only the events they
-- are asked about: verified events (and place events with a verdict). A new event is unverified,
-- so writing it no longer touches them: a dense move writes dozens of events (docs/performance.md).
-- Prisma's model does not know partial indexes; they live here (and in the PostgreSQL migrations).
DROP INDEX "Event_live_subject_type_band_verification_idx";
CREATE INDEX "Event_verdicts_idx" ON "Event"("live", "subject", "type", "band", "verification")
  WHERE "verification" != 0;

DROP INDEX "Event_type_live_latitude_idx";
CREATE INDEX "Event_place_verdicts_idx" ON "Event"("live", "latitude")
  WHERE "type" = 'user.entered_place' AND ("verification" != 0 OR "verifiedPlaceId" IS NOT NULL);
