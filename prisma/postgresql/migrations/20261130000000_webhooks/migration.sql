-- Webhooks (issue 27): the receivers, and the outbox of requests owed to them, written in the same
-- transaction as the events they carry (docs/webhooks.md).
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
    "lockedUntil" TIMESTAMPTZ(3),
    "lastAttemptAt" TIMESTAMPTZ(3),
    "lastStatus" INTEGER,
    "lastError" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL,
    "deliveredAt" TIMESTAMPTZ(3),

    CONSTRAINT "WebhookDelivery_pkey" PRIMARY KEY ("seq")
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

