-- A geofence's updatedAt is its version: If-Match preconditions and the geofences tracking and
-- search keep decoded (server/geofences/decoded.ts) key on it. Every change must leave it later
-- than the version it replaces, whichever app process wrote it and whatever its clock said; the
-- store writes a later one and reads again when this refuses (a concurrent write came first).
CREATE TRIGGER "Geofence_version_increases" BEFORE UPDATE ON "Geofence"
WHEN julianday(NEW."updatedAt") <= julianday(OLD."updatedAt")
BEGIN
  SELECT RAISE(ABORT, 'geofence version must increase');
END;
