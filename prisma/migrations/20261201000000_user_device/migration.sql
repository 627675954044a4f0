-- What a device says of itself in its updates (Radar's SDKs send its OS, make, model, SDK version,
-- install id and location authorizations with every track) and of its last fix (altitude, speed,
-- course, replayed): one JSON object of the fields it sent (issue 28).
ALTER TABLE "User" ADD COLUMN "device" JSONB;
