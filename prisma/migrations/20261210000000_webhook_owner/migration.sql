-- Requests sent straight from the outbox (issue 27): an outbox row names the app process whose
-- tracking wrote it, and that process's sender sends it. A sender keeps a row in WebhookSender
-- while it runs; rows of a process whose sender is not alive (killed, or rows from before this
-- migration, which name none) are split into queues by another sender, as before. A sender
-- reads its own rows by owner.
ALTER TABLE "WebhookOutbox" ADD COLUMN "owner" TEXT NOT NULL DEFAULT '';
CREATE INDEX "WebhookOutbox_owner_seq_idx" ON "WebhookOutbox"("owner", "seq");

CREATE TABLE "WebhookSender" (
    "owner" TEXT NOT NULL PRIMARY KEY,
    "aliveUntil" DATETIME NOT NULL
);

-- A queue's pending requests are looked up by an index of pending requests only: a request
-- delivered at its first attempt (most of them) is written once, and never enters it.
DROP INDEX "WebhookDelivery_webhookSeq_userId_status_seq_idx";
CREATE INDEX "WebhookDelivery_pending_idx" ON "WebhookDelivery"("webhookSeq", "userId", "seq") WHERE "status" = 'pending';
