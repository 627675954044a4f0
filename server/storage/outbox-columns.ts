import type { AttemptOutcome, DeliveryStatus, OutboxWrite, StoredOutbox } from "./webhook-records";

/**
 * An outbox row's three JSON columns (WebhookOutbox: targets, events, user), as both engines
 * store them: text, written and read back as is (the events and user are bodies to be, not
 * values the database looks into).
 */
type OutboxJson = Record<"targets" | "events" | "user", string>;

export const outboxJson = (row: OutboxWrite): OutboxJson => ({
  targets: JSON.stringify(row.targets),
  events: JSON.stringify(row.events),
  user: JSON.stringify(row.user),
});

/** The columns read back; the user stays text: bodies are made around it, not from a copy. */
export const outboxFromJson = (text: OutboxJson): Pick<StoredOutbox, "targets" | "events" | "userJson"> => ({
  targets: JSON.parse(text.targets) as StoredOutbox["targets"],
  events: JSON.parse(text.events) as StoredOutbox["events"],
  userJson: text.user,
});

/**
 * What a delivery is after an attempt that ended so (null: not tried yet): refused with a retry
 * to come, it is still pending.
 */
export const statusAfter = (outcome: AttemptOutcome | null): DeliveryStatus =>
  !outcome ? "pending" : outcome.delivered ? "delivered" : outcome.retryAt ? "pending" : "failed";
