-- Beacons (docs/beacons.md): Bluetooth beacons at places, and which of them each user is in now.
CREATE TABLE "Beacon" (
    "seq" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "id" TEXT NOT NULL,
    "live" BOOLEAN NOT NULL,
    "description" TEXT NOT NULL,
    "tag" TEXT,
    "externalId" TEXT,
    "uuid" TEXT NOT NULL,
    "major" TEXT NOT NULL,
    "minor" TEXT NOT NULL,
    "longitude" REAL NOT NULL,
    "latitude" REAL NOT NULL,
    "metadata" JSONB,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" DATETIME NOT NULL,
    "updatedAt" DATETIME NOT NULL
);
CREATE UNIQUE INDEX "Beacon_id_key" ON "Beacon"("id");
CREATE UNIQUE INDEX "Beacon_live_tag_externalId_key" ON "Beacon"("live", "tag", "externalId");
CREATE INDEX "Beacon_live_createdAt_id_idx" ON "Beacon"("live", "createdAt", "id");
CREATE INDEX "Beacon_live_tag_createdAt_id_idx" ON "Beacon"("live", "tag", "createdAt", "id");
CREATE INDEX "Beacon_live_uuid_major_minor_idx" ON "Beacon"("live", "uuid", "major", "minor");
CREATE INDEX "Beacon_live_latitude_longitude_idx" ON "Beacon"("live", "latitude", "longitude");

CREATE TABLE "UserBeacon" (
    "userSeq" INTEGER NOT NULL,
    "beaconSeq" INTEGER NOT NULL,
    "enteredAt" DATETIME NOT NULL,

    PRIMARY KEY ("userSeq", "beaconSeq")
);
CREATE INDEX "UserBeacon_beaconSeq_idx" ON "UserBeacon"("beaconSeq");

-- A user or a beacon deleted takes its rows here with it, in the same statement (the users'
-- store knows nothing of beacons).
CREATE TRIGGER "User_beacons_delete" AFTER DELETE ON "User"
BEGIN
  DELETE FROM "UserBeacon" WHERE "userSeq" = OLD."seq";
END;
CREATE TRIGGER "Beacon_members_delete" AFTER DELETE ON "Beacon"
BEGIN
  DELETE FROM "UserBeacon" WHERE "beaconSeq" = OLD."seq";
END;
