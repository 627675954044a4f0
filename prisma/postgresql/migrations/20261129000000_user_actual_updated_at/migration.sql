-- A user's updatedAt is made distinct within its world (user lists page on it), so it may run a
-- few milliseconds ahead of the device's own time. Which update of a device is newer is decided on
-- the time the device sent, kept here: deciding it on updatedAt dropped updates (issue 25).
ALTER TABLE "User" ADD COLUMN "actualUpdatedAt" TIMESTAMPTZ(3);
UPDATE "User" SET "actualUpdatedAt" = "updatedAt";
ALTER TABLE "User" ALTER COLUMN "actualUpdatedAt" SET NOT NULL;
