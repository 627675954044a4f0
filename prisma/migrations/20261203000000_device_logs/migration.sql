-- What a device's SDK logged (POST /v1/logs, issue 28), kept for support: bounded per device and
-- in time (server/logs.ts).
CREATE TABLE "DeviceLog" (
    "seq" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "live" BOOLEAN NOT NULL,
    "deviceId" TEXT NOT NULL,
    "installId" TEXT,
    "level" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "type" TEXT,
    "createdAt" DATETIME NOT NULL,
    "receivedAt" DATETIME NOT NULL
);
CREATE INDEX "DeviceLog_live_deviceId_seq_idx" ON "DeviceLog"("live", "deviceId", "seq");
CREATE INDEX "DeviceLog_receivedAt_idx" ON "DeviceLog"("receivedAt");
