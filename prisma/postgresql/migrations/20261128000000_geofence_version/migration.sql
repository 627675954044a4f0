-- A geofence's updatedAt is its version: If-Match preconditions and the geofences tracking and
-- search keep decoded (server/geofences/decoded.ts) key on it. Every change must leave it later
-- than the version it replaces, whichever app process wrote it and whatever its clock said; the
-- store writes a later one and reads again when this refuses (a concurrent write came first).
CREATE FUNCTION "Geofence_version_increases"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."updatedAt" <= OLD."updatedAt" THEN
    RAISE EXCEPTION 'geofence version must increase' USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER "Geofence_version_increases" BEFORE UPDATE ON "Geofence"
  FOR EACH ROW EXECUTE FUNCTION "Geofence_version_increases"();
