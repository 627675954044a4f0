-- CreateTable
CREATE TABLE "ApiKey" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "live" BOOLEAN NOT NULL,
    "kind" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "name" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" DATETIME,
    "revokedAt" DATETIME
);

-- CreateTable
CREATE TABLE "Geofence" (
    "seq" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "id" TEXT NOT NULL,
    "live" BOOLEAN NOT NULL,
    "description" TEXT NOT NULL,
    "tag" TEXT,
    "externalId" TEXT,
    "type" TEXT NOT NULL,
    "geometry" JSONB NOT NULL,
    "centerLng" REAL NOT NULL,
    "centerLat" REAL NOT NULL,
    "radius" REAL NOT NULL,
    "minLng" REAL NOT NULL,
    "minLat" REAL NOT NULL,
    "maxLng" REAL NOT NULL,
    "maxLat" REAL NOT NULL,
    "metadata" JSONB,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "dwellThreshold" INTEGER,
    "createdAt" DATETIME NOT NULL,
    "updatedAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE UNIQUE INDEX "ApiKey_hash_key" ON "ApiKey"("hash");

-- CreateIndex
CREATE UNIQUE INDEX "Geofence_id_key" ON "Geofence"("id");

-- CreateIndex
CREATE INDEX "Geofence_live_createdAt_id_idx" ON "Geofence"("live", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Geofence_live_tag_createdAt_id_idx" ON "Geofence"("live", "tag", "createdAt", "id");

-- CreateIndex
CREATE UNIQUE INDEX "Geofence_live_tag_externalId_key" ON "Geofence"("live", "tag", "externalId");


-- Spatial index over geofence bounding boxes (not expressible in the Prisma schema).
-- Kept in step with "Geofence" by triggers, so every write path, and every transaction
-- rollback, maintains it. PostgreSQL uses a GiST index instead (server/db/dialect.ts).
CREATE VIRTUAL TABLE "GeofenceRTree" USING rtree("seq", "minLng", "maxLng", "minLat", "maxLat");

CREATE TRIGGER "Geofence_rtree_insert" AFTER INSERT ON "Geofence" BEGIN
    INSERT INTO "GeofenceRTree" ("seq", "minLng", "maxLng", "minLat", "maxLat")
    VALUES (NEW."seq", NEW."minLng", NEW."maxLng", NEW."minLat", NEW."maxLat");
END;

CREATE TRIGGER "Geofence_rtree_update" AFTER UPDATE OF "minLng", "maxLng", "minLat", "maxLat" ON "Geofence" BEGIN
    UPDATE "GeofenceRTree"
    SET "minLng" = NEW."minLng", "maxLng" = NEW."maxLng", "minLat" = NEW."minLat", "maxLat" = NEW."maxLat"
    WHERE "seq" = NEW."seq";
END;

CREATE TRIGGER "Geofence_rtree_delete" AFTER DELETE ON "Geofence" BEGIN
    DELETE FROM "GeofenceRTree" WHERE "seq" = OLD."seq";
END;
