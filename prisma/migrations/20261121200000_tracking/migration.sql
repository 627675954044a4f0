-- CreateTable
CREATE TABLE "User" (
    "seq" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "id" TEXT NOT NULL,
    "live" BOOLEAN NOT NULL,
    "deviceId" TEXT NOT NULL,
    "userId" TEXT,
    "description" TEXT,
    "metadata" JSONB,
    "deviceType" TEXT,
    "foreground" BOOLEAN,
    "stopped" BOOLEAN,
    "latitude" REAL NOT NULL,
    "longitude" REAL NOT NULL,
    "accuracy" REAL NOT NULL,
    "createdAt" DATETIME NOT NULL,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "UserGeofence" (
    "userSeq" INTEGER NOT NULL,
    "geofenceSeq" INTEGER NOT NULL,
    "enteredAt" DATETIME NOT NULL,
    "dwelled" BOOLEAN NOT NULL DEFAULT false,

    PRIMARY KEY ("userSeq", "geofenceSeq")
);

-- CreateTable
CREATE TABLE "UserLocation" (
    "seq" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "userSeq" INTEGER NOT NULL,
    "latitude" REAL NOT NULL,
    "longitude" REAL NOT NULL,
    "accuracy" REAL NOT NULL,
    "recordedAt" DATETIME NOT NULL,
    "receivedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "Event" (
    "seq" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "id" TEXT NOT NULL,
    "live" BOOLEAN NOT NULL,
    "type" TEXT NOT NULL,
    "userSeq" INTEGER NOT NULL,
    "user" JSONB NOT NULL,
    "geofenceId" TEXT,
    "geofence" JSONB,
    "latitude" REAL NOT NULL,
    "longitude" REAL NOT NULL,
    "accuracy" REAL NOT NULL,
    "confidence" INTEGER NOT NULL,
    "probability" REAL NOT NULL,
    "band" TEXT NOT NULL,
    "verification" INTEGER NOT NULL DEFAULT 0,
    "verifiedAt" DATETIME,
    "verifiedPlaceId" TEXT,
    "duration" REAL,
    "createdAt" DATETIME NOT NULL,
    "actualCreatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "EventVerification" (
    "seq" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "eventSeq" INTEGER NOT NULL,
    "verification" INTEGER NOT NULL,
    "verifiedPlaceId" TEXT,
    "keyId" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE UNIQUE INDEX "User_id_key" ON "User"("id");

-- CreateIndex
CREATE INDEX "User_live_deviceId_idx" ON "User"("live", "deviceId");

-- CreateIndex
CREATE INDEX "User_live_updatedAt_id_idx" ON "User"("live", "updatedAt", "id");

-- CreateIndex
CREATE UNIQUE INDEX "User_live_userId_key" ON "User"("live", "userId");

-- CreateIndex
CREATE INDEX "UserGeofence_geofenceSeq_idx" ON "UserGeofence"("geofenceSeq");

-- CreateIndex
CREATE INDEX "UserLocation_userSeq_recordedAt_idx" ON "UserLocation"("userSeq", "recordedAt");

-- CreateIndex
CREATE UNIQUE INDEX "Event_id_key" ON "Event"("id");

-- CreateIndex
CREATE INDEX "Event_live_createdAt_id_idx" ON "Event"("live", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Event_userSeq_idx" ON "Event"("userSeq");

-- CreateIndex
CREATE INDEX "Event_geofenceId_type_band_verification_idx" ON "Event"("geofenceId", "type", "band", "verification");

-- CreateIndex
CREATE INDEX "EventVerification_eventSeq_idx" ON "EventVerification"("eventSeq");


-- Spatial index over users' last locations (points stored as degenerate boxes), kept in step
-- with "User" by triggers like the geofence index.
CREATE VIRTUAL TABLE "UserRTree" USING rtree("seq", "minLng", "maxLng", "minLat", "maxLat");

CREATE TRIGGER "User_rtree_insert" AFTER INSERT ON "User" BEGIN
    INSERT INTO "UserRTree" ("seq", "minLng", "maxLng", "minLat", "maxLat")
    VALUES (NEW."seq", NEW."longitude", NEW."longitude", NEW."latitude", NEW."latitude");
END;

CREATE TRIGGER "User_rtree_update" AFTER UPDATE OF "latitude", "longitude" ON "User" BEGIN
    UPDATE "UserRTree"
    SET "minLng" = NEW."longitude", "maxLng" = NEW."longitude", "minLat" = NEW."latitude", "maxLat" = NEW."latitude"
    WHERE "seq" = NEW."seq";
END;

CREATE TRIGGER "User_rtree_delete" AFTER DELETE ON "User" BEGIN
    DELETE FROM "UserRTree" WHERE "seq" = OLD."seq";
END;

-- Deleting a geofence takes its users out of it in the same statement.
CREATE TRIGGER "Geofence_members_delete" AFTER DELETE ON "Geofence" BEGIN
    DELETE FROM "UserGeofence" WHERE "geofenceSeq" = OLD."seq";
END;
