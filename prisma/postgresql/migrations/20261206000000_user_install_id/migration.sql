-- A conversion may name its user by the SDK's installId alone (issue 28): found by this index
-- (server/db/postgresql/storage.ts uses the same expression).
CREATE INDEX "User_live_installId_idx" ON "User" ("live", ("device"->>'installId'));
