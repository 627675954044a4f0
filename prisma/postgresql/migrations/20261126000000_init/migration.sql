-- The whole model at once (prisma migrate diff --from-empty, scripts/prisma-schemas.ts), then what
-- Prisma cannot express: PostGIS geometries kept by the database and their GiST indexes.

-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "ApiKey" (
    "id" TEXT NOT NULL,
    "live" BOOLEAN NOT NULL,
    "kind" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "name" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" TIMESTAMPTZ(3),
    "revokedAt" TIMESTAMPTZ(3),

    CONSTRAINT "ApiKey_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Geofence" (
    "seq" SERIAL NOT NULL,
    "id" TEXT NOT NULL,
    "live" BOOLEAN NOT NULL,
    "description" TEXT NOT NULL,
    "tag" TEXT,
    "externalId" TEXT,
    "type" TEXT NOT NULL,
    "geometry" JSONB NOT NULL,
    "centerLng" DOUBLE PRECISION NOT NULL,
    "centerLat" DOUBLE PRECISION NOT NULL,
    "radius" DOUBLE PRECISION NOT NULL,
    "minLng" DOUBLE PRECISION NOT NULL,
    "minLat" DOUBLE PRECISION NOT NULL,
    "maxLng" DOUBLE PRECISION NOT NULL,
    "maxLat" DOUBLE PRECISION NOT NULL,
    "metadata" JSONB,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "dwellThreshold" INTEGER,
    "createdAt" TIMESTAMPTZ(3) NOT NULL,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Geofence_pkey" PRIMARY KEY ("seq")
);

-- CreateTable
CREATE TABLE "User" (
    "seq" SERIAL NOT NULL,
    "id" TEXT NOT NULL,
    "live" BOOLEAN NOT NULL,
    "deviceId" TEXT NOT NULL,
    "userId" TEXT,
    "description" TEXT,
    "metadata" JSONB,
    "deviceType" TEXT,
    "foreground" BOOLEAN,
    "stopped" BOOLEAN,
    "latitude" DOUBLE PRECISION NOT NULL,
    "longitude" DOUBLE PRECISION NOT NULL,
    "accuracy" DOUBLE PRECISION NOT NULL,
    "country" JSONB,
    "state" JSONB,
    "postalCode" JSONB,
    "dma" JSONB,
    "place" JSONB,
    "placeEnteredAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "User_pkey" PRIMARY KEY ("seq")
);

-- CreateTable
CREATE TABLE "UserGeofence" (
    "userSeq" INTEGER NOT NULL,
    "geofenceSeq" INTEGER NOT NULL,
    "enteredAt" TIMESTAMPTZ(3) NOT NULL,
    "dwelled" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "UserGeofence_pkey" PRIMARY KEY ("userSeq","geofenceSeq")
);

-- CreateTable
CREATE TABLE "UserLocation" (
    "seq" SERIAL NOT NULL,
    "userSeq" INTEGER NOT NULL,
    "latitude" DOUBLE PRECISION NOT NULL,
    "longitude" DOUBLE PRECISION NOT NULL,
    "accuracy" DOUBLE PRECISION NOT NULL,
    "recordedAt" TIMESTAMPTZ(3) NOT NULL,
    "receivedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "UserLocation_pkey" PRIMARY KEY ("seq")
);

-- CreateTable
CREATE TABLE "Event" (
    "seq" SERIAL NOT NULL,
    "id" TEXT NOT NULL,
    "live" BOOLEAN NOT NULL,
    "type" TEXT NOT NULL,
    "userSeq" INTEGER NOT NULL,
    "user" JSONB NOT NULL,
    "geofenceId" TEXT,
    "geofence" JSONB,
    "subject" TEXT,
    "region" JSONB,
    "place" JSONB,
    "placeId" TEXT,
    "alternatePlaces" JSONB,
    "verifiedPlace" JSONB,
    "latitude" DOUBLE PRECISION NOT NULL,
    "longitude" DOUBLE PRECISION NOT NULL,
    "accuracy" DOUBLE PRECISION NOT NULL,
    "confidence" INTEGER NOT NULL,
    "probability" DOUBLE PRECISION NOT NULL,
    "band" TEXT NOT NULL,
    "verification" INTEGER NOT NULL DEFAULT 0,
    "verifiedAt" TIMESTAMPTZ(3),
    "verifiedPlaceId" TEXT,
    "duration" DOUBLE PRECISION,
    "createdAt" TIMESTAMPTZ(3) NOT NULL,
    "actualCreatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Event_pkey" PRIMARY KEY ("seq")
);

-- CreateTable
CREATE TABLE "EventVerification" (
    "seq" SERIAL NOT NULL,
    "eventSeq" INTEGER NOT NULL,
    "verification" INTEGER NOT NULL,
    "verifiedPlaceId" TEXT,
    "keyId" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "EventVerification_pkey" PRIMARY KEY ("seq")
);

-- CreateTable
CREATE TABLE "Account" (
    "id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "passwordHash" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL,
    "disabledAt" TIMESTAMPTZ(3),

    CONSTRAINT "Account_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Session" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "live" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMPTZ(3) NOT NULL,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Session_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SignInFailure" (
    "seq" SERIAL NOT NULL,
    "key" TEXT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "SignInFailure_pkey" PRIMARY KEY ("seq")
);

-- CreateTable
CREATE TABLE "Setting" (
    "key" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Setting_pkey" PRIMARY KEY ("key")
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
CREATE INDEX "Event_live_subject_type_band_verification_idx" ON "Event"("live", "subject", "type", "band", "verification");

-- CreateIndex
CREATE INDEX "Event_type_live_latitude_idx" ON "Event"("type", "live", "latitude");

-- CreateIndex
CREATE INDEX "EventVerification_eventSeq_idx" ON "EventVerification"("eventSeq");

-- CreateIndex
CREATE UNIQUE INDEX "Account_email_key" ON "Account"("email");

-- CreateIndex
CREATE INDEX "Session_accountId_idx" ON "Session"("accountId");

-- CreateIndex
CREATE INDEX "SignInFailure_key_at_idx" ON "SignInFailure"("key", "at");


-- PostGIS: needs a superuser, or the extension created beforehand by one (docs/deployment.md).
CREATE EXTENSION IF NOT EXISTS postgis;

-- A geofence's bounding box, kept by the database from the columns the model writes: spatial
-- searches and tracking find candidates through its GiST index (&&), then decide exactly.
ALTER TABLE "Geofence" ADD COLUMN "box" geometry(Polygon, 4326)
  GENERATED ALWAYS AS (ST_MakeEnvelope("minLng", "minLat", "maxLng", "maxLat", 4326)) STORED;
CREATE INDEX "Geofence_box_idx" ON "Geofence" USING GIST ("box");

-- A user's last position, for "users in this area".
ALTER TABLE "User" ADD COLUMN "position" geometry(Point, 4326)
  GENERATED ALWAYS AS (ST_SetSRID(ST_MakePoint("longitude", "latitude"), 4326)) STORED;
CREATE INDEX "User_position_idx" ON "User" USING GIST ("position");

-- Deleting a geofence takes its users out of it in the same statement.
CREATE FUNCTION "Geofence_members_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "UserGeofence" WHERE "geofenceSeq" = OLD."seq";
  RETURN OLD;
END $$;
CREATE TRIGGER "Geofence_members_delete" AFTER DELETE ON "Geofence"
  FOR EACH ROW EXECUTE FUNCTION "Geofence_members_delete"();

-- User lists page on updatedAt alone (Radar's cursors are datetimes), so no two users of a world
-- may share one: tracking picks a free instant, and with several app processes this index is
-- what makes two concurrent updates notice each other (the later one decides again).
CREATE UNIQUE INDEX "User_live_updatedAt_key" ON "User" ("live", "updatedAt");
