-- Processes keep the API keys they have seen (server/auth/key-cache.ts) and drop them when the
-- keys' version changes. The version was the keys' count and newest creation and revocation
-- times, which missed a revocation stamped at or before the newest one (another host's clock, the
-- same millisecond). It is now a number that every change of a key raises, in the change's own
-- transaction (a trigger: no code path can forget it).

CREATE TABLE "KeyVersion" ("id" INTEGER PRIMARY KEY CHECK ("id" = 1), "version" BIGINT NOT NULL);
INSERT INTO "KeyVersion" ("id", "version") VALUES (1, 1);

CREATE FUNCTION "ApiKey_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "KeyVersion" SET "version" = "version" + 1 WHERE "id" = 1;
  RETURN NULL;
END $$;

CREATE TRIGGER "ApiKey_changed" AFTER INSERT OR DELETE
  OR UPDATE OF "kind", "live", "hash", "revokedAt" ON "ApiKey"
  FOR EACH STATEMENT EXECUTE FUNCTION "ApiKey_changed"();
