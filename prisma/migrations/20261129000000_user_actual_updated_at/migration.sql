-- A user's updatedAt is made distinct within its world (user lists page on it), so it may run a
-- few milliseconds ahead of the device's own time. Which update of a device is newer is decided on
-- the time the device sent, kept here: deciding it on updatedAt dropped updates (issue 25).
-- SQLite adds a NOT NULL column only with a default; every row is given its value at once.
ALTER TABLE "User" ADD COLUMN "actualUpdatedAt" DATETIME NOT NULL DEFAULT '1970-01-01T00:00:00.000+00:00';
UPDATE "User" SET "actualUpdatedAt" = "updatedAt";
