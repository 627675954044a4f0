-- Webhooks (issue 27): the receivers, the outbox of requests owed to them (written in the same
-- transaction as the events they carry) and its queues, one per webhook and user (docs/webhooks.md).
-- CreateTable
CREATE TABLE "Webhook" (
    "seq" SERIAL NOT NULL,
    "id" TEXT NOT NULL,
    "live" BOOLEAN NOT NULL,
    "url" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "types" TEXT,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "token" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Webhook_pkey" PRIMARY KEY ("seq")
);

-- CreateTable
CREATE TABLE "WebhookDelivery" (
    "seq" SERIAL NOT NULL,
    "id" TEXT NOT NULL,
    "webhookSeq" INTEGER NOT NULL,
    "live" BOOLEAN NOT NULL,
    "userId" TEXT NOT NULL,
    "types" TEXT NOT NULL,
    "eventIds" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMPTZ(3) NOT NULL,
    "lastAttemptAt" TIMESTAMPTZ(3),
    "lastStatus" INTEGER,
    "lastError" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL,
    "deliveredAt" TIMESTAMPTZ(3),

    CONSTRAINT "WebhookDelivery_pkey" PRIMARY KEY ("seq")
);

-- CreateTable
CREATE TABLE "WebhookQueue" (
    "webhookSeq" INTEGER NOT NULL,
    "userId" TEXT NOT NULL,
    "pending" INTEGER NOT NULL,
    "nextAttemptAt" TIMESTAMPTZ(3),
    "lockedUntil" TIMESTAMPTZ(3),

    CONSTRAINT "WebhookQueue_pkey" PRIMARY KEY ("webhookSeq","userId")
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

