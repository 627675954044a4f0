-- AlterTable
ALTER TABLE "User" ADD COLUMN "dma" JSONB;
ALTER TABLE "User" ADD COLUMN "place" JSONB;
ALTER TABLE "User" ADD COLUMN "placeEnteredAt" DATETIME;
ALTER TABLE "User" ADD COLUMN "postalCode" JSONB;

-- AlterTable
ALTER TABLE "Event" ADD COLUMN "alternatePlaces" JSONB;
ALTER TABLE "Event" ADD COLUMN "place" JSONB;
ALTER TABLE "Event" ADD COLUMN "placeId" TEXT;
ALTER TABLE "Event" ADD COLUMN "verifiedPlace" JSONB;

-- CreateIndex
CREATE INDEX "Event_type_live_latitude_idx" ON "Event"("type", "live", "latitude");

