-- The webhook outbox as one row per update (issue 27): tracking writes what an update's events
-- owe the webhooks in one row, whatever their number; a sender splits it into requests
-- (WebhookDelivery) off the tracking thread. Requests already written stay where they are.
CREATE TABLE "WebhookOutbox" (
    "seq" SERIAL NOT NULL,
    "live" BOOLEAN NOT NULL,
    "userId" TEXT NOT NULL,
    "targets" TEXT NOT NULL,
    "events" TEXT NOT NULL,
    "user" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "WebhookOutbox_pkey" PRIMARY KEY ("seq")
);
