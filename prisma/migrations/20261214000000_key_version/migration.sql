-- Processes keep the API keys they have seen (server/auth/key-cache.ts) and drop them when the
-- keys' version changes. The version was the keys' count and newest creation and revocation
-- times, which missed a revocation stamped at or before the newest one (another host's clock, the
-- same millisecond). It is now a number that every change of a key raises, in the change's own
-- transaction (triggers: no code path can forget it).

CREATE TABLE "KeyVersion" ("id" INTEGER NOT NULL PRIMARY KEY CHECK ("id" = 1), "version" INTEGER NOT NULL);
INSERT INTO "KeyVersion" ("id", "version") VALUES (1, 1);

CREATE TRIGGER "ApiKey_version_insert" AFTER INSERT ON "ApiKey" BEGIN
    UPDATE "KeyVersion" SET "version" = "version" + 1 WHERE "id" = 1;
END;

CREATE TRIGGER "ApiKey_version_update" AFTER UPDATE OF "kind", "live", "hash", "revokedAt" ON "ApiKey" BEGIN
    UPDATE "KeyVersion" SET "version" = "version" + 1 WHERE "id" = 1;
END;

CREATE TRIGGER "ApiKey_version_delete" AFTER DELETE ON "ApiKey" BEGIN
    UPDATE "KeyVersion" SET "version" = "version" + 1 WHERE "id" = 1;
END;
