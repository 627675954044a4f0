-- What a device's SDK logged (POST /v1/logs, issue 28), kept for support: bounded per device and
-- in time (server/logs.ts).
CREATE TABLE "DeviceLog" (
    "seq" SERIAL NOT NULL,
    "live" BOOLEAN NOT NULL,
    "deviceId" TEXT NOT NULL,
    "installId" TEXT,
    "level" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "type" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL,
    "receivedAt" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "DeviceLog_pkey" PRIMARY KEY ("seq")
);
CREATE INDEX "DeviceLog_live_deviceId_seq_idx" ON "DeviceLog"("live", "deviceId", "seq");
CREATE INDEX "DeviceLog_receivedAt_idx" ON "DeviceLog"("receivedAt");
