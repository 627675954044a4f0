-- Webhooks (issue 27): the receivers, the outbox of requests owed to them (written in the same
-- transaction as the events they carry) and its queues, one per webhook and user (docs/webhooks.md).
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
    "lastAttemptAt" DATETIME,
    "lastStatus" INTEGER,
    "lastError" TEXT,
    "createdAt" DATETIME NOT NULL,
    "deliveredAt" DATETIME
);

-- CreateTable
CREATE TABLE "WebhookQueue" (
    "webhookSeq" INTEGER NOT NULL,
    "userId" TEXT NOT NULL,
    "pending" INTEGER NOT NULL,
    "nextAttemptAt" DATETIME,
    "lockedUntil" DATETIME,

    PRIMARY KEY ("webhookSeq", "userId")
);

-- CreateIndex
CREATE UNIQUE INDEX "Webhook_id_key" ON "Webhook"("id");

-- CreateIndex
CREATE INDEX "Webhook_live_enabled_idx" ON "Webhook"("live", "enabled");

-- CreateIndex
CREATE UNIQUE INDEX "WebhookDelivery_id_key" ON "WebhookDelivery"("id");

-- CreateIndex
CREATE INDEX "WebhookDelivery_webhookSeq_userId_status_seq_idx" ON "WebhookDelivery"("webhookSeq", "userId", "status", "seq");

-- CreateIndex
CREATE INDEX "WebhookDelivery_webhookSeq_seq_idx" ON "WebhookDelivery"("webhookSeq", "seq");

-- CreateIndex
CREATE INDEX "WebhookDelivery_userId_idx" ON "WebhookDelivery"("userId");

-- CreateIndex
CREATE INDEX "WebhookDelivery_createdAt_idx" ON "WebhookDelivery"("createdAt");

-- CreateIndex
CREATE INDEX "WebhookQueue_webhookSeq_nextAttemptAt_idx" ON "WebhookQueue"("webhookSeq", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "WebhookQueue_userId_idx" ON "WebhookQueue"("userId");

