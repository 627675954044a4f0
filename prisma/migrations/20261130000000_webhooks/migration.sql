-- Webhooks (issue 27): the receivers, and the outbox of requests owed to them, written in the same
-- transaction as the events they carry (docs/webhooks.md).
-- CreateTable
CREATE TABLE "Webhook" (
    "seq" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "id" TEXT NOT NULL,
    "live" BOOLEAN NOT NULL,
    "url" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "types" TEXT,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "token" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "WebhookDelivery" (
    "seq" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "id" TEXT NOT NULL,
    "webhookSeq" INTEGER NOT NULL,
    "live" BOOLEAN NOT NULL,
    "userId" TEXT NOT NULL,
    "types" TEXT NOT NULL,
    "eventIds" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" DATETIME NOT NULL,
    "lockedUntil" DATETIME,
    "lastAttemptAt" DATETIME,
    "lastStatus" INTEGER,
    "lastError" TEXT,
    "createdAt" DATETIME NOT NULL,
    "deliveredAt" DATETIME
);

-- CreateIndex
CREATE UNIQUE INDEX "Webhook_id_key" ON "Webhook"("id");

-- CreateIndex
CREATE INDEX "Webhook_live_enabled_idx" ON "Webhook"("live", "enabled");

-- CreateIndex
CREATE UNIQUE INDEX "WebhookDelivery_id_key" ON "WebhookDelivery"("id");

-- CreateIndex
CREATE INDEX "WebhookDelivery_status_nextAttemptAt_idx" ON "WebhookDelivery"("status", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "WebhookDelivery_webhookSeq_userId_seq_idx" ON "WebhookDelivery"("webhookSeq", "userId", "seq");

-- CreateIndex
CREATE INDEX "WebhookDelivery_webhookSeq_createdAt_idx" ON "WebhookDelivery"("webhookSeq", "createdAt");

