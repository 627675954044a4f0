-- Trips (issue 30): a user's journey to a destination, with its status, legs and road ETA; trip
-- events carry the trip as it was.
ALTER TABLE "Event" ADD COLUMN "trip" JSONB;

CREATE TABLE "Trip" (
    "seq" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "id" TEXT NOT NULL,
    "live" BOOLEAN NOT NULL,
    "externalId" TEXT NOT NULL,
    "userId" TEXT,
    "deviceId" TEXT,
    "status" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "metadata" JSONB,
    "destinationGeofenceTag" TEXT,
    "destinationGeofenceExternalId" TEXT,
    "destinationGeofenceId" TEXT,
    "destinationLatitude" REAL,
    "destinationLongitude" REAL,
    "arrivalRadius" REAL,
    "approachingThreshold" INTEGER NOT NULL,
    "scheduledArrivalAt" DATETIME,
    "etaDistance" REAL,
    "etaDuration" REAL,
    "etaSource" TEXT,
    "delayMinutes" REAL,
    "legs" JSONB,
    "startNotified" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL,
    "updatedAt" DATETIME NOT NULL,
    "startedAt" DATETIME,
    "endedAt" DATETIME,
    "expiresAt" DATETIME NOT NULL
);

CREATE UNIQUE INDEX "Trip_id_key" ON "Trip"("id");
CREATE UNIQUE INDEX "Trip_live_externalId_key" ON "Trip"("live", "externalId");
CREATE INDEX "Trip_live_userId_status_idx" ON "Trip"("live", "userId", "status");
CREATE INDEX "Trip_live_deviceId_status_idx" ON "Trip"("live", "deviceId", "status");
CREATE INDEX "Trip_live_createdAt_id_idx" ON "Trip"("live", "createdAt", "id");
CREATE INDEX "Trip_status_expiresAt_idx" ON "Trip"("status", "expiresAt");
