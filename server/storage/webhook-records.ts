/* Webhooks, the outbox rows tracking writes, and the requests a sender sends. */

/** A webhook as stored (docs/webhooks.md); its token is read only to sign. */
export interface StoredWebhook {
  seq: number;
  id: string;
  live: boolean;
  url: string;
  mode: "single" | "multiple";
  /** the event types it receives; null: all */
  types: string[] | null;
  enabled: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/** What tracking needs of an enabled webhook to fill its outbox. */
export type WebhookTarget = Pick<StoredWebhook, "seq" | "mode" | "types">;

/**
 * What one update's events owe the webhooks, as tracking writes it (one row, whatever the number
 * of webhooks): the webhooks enabled for its world when the events were made, the events and the
 * user as the API serialized them then. A sender splits it into requests (DeliveryWrite).
 */
export interface OutboxWrite {
  live: boolean;
  userId: string;
  targets: WebhookTarget[];
  /** each event's _id, type, and the event as GET /v1/events/{id} serialized it */
  events: { id: string; type: string; wire: unknown }[];
  /** the user as GET /v1/users/{id} serialized it */
  user: unknown;
  createdAt: Date;
}

/** An outbox row as read back: the user is the JSON text written (bodies are made around it). */
export interface StoredOutbox extends Omit<OutboxWrite, "user"> {
  seq: number;
  userJson: string;
}

/**
 * An outbox row of the sender's own process, as its turn hands it out: once every earlier row of
 * its user still in the outbox is one the sender holds (or one handed out before it).
 */
export interface OwnOutbox extends StoredOutbox {
  /** webhooks whose queue for this user has requests pending (the row's go last in them) */
  busy: number[];
}

/** A request owed to a webhook, as the outbox writes it. */
export interface DeliveryWrite {
  id: string;
  webhookSeq: number;
  live: boolean;
  userId: string;
  types: string;
  eventIds: string;
  body: string;
  nextAttemptAt: Date;
  createdAt: Date;
}

export type DeliveryStatus = "pending" | "delivered" | "failed";

export interface StoredDelivery extends DeliveryWrite {
  seq: number;
  status: DeliveryStatus;
  attempts: number;
  lastAttemptAt: Date | null;
  lastStatus: number | null;
  lastError: string | null;
  deliveredAt: Date | null;
}

/**
 * The first delivery of a (webhook, user) queue a sender holds until the outcome is recorded:
 * with where it goes and the key it is signed with.
 */
export interface ClaimedDelivery extends StoredDelivery {
  url: string;
  token: string;
}

/** How an attempt ended: delivered, or when to try again (null: give up, failed). */
export type AttemptOutcome =
  | { delivered: true; status: number }
  | { delivered: false; status: number | null; error: string | null; retryAt: Date | null };

/**
 * A request of a sender's own outbox row (`row`), to write: sent straight from the row, with when
 * and how its attempt ended, or not tried (`outcome` null: it goes last in its queue).
 */
export interface OwnRequest {
  row: number;
  delivery: DeliveryWrite;
  at: Date | null;
  outcome: AttemptOutcome | null;
}

/** An attempt that ended: which delivery (as it was claimed), when, how. */
export interface FinishedAttempt {
  delivery: Pick<ClaimedDelivery, "seq" | "webhookSeq" | "userId" | "attempts">;
  at: Date;
  outcome: AttemptOutcome;
}
