import type { OutboxWrite, StoredOutbox } from "./records";

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

export const outboxFromJson = (text: OutboxJson): Pick<StoredOutbox, "targets" | "events" | "user"> => ({
  targets: JSON.parse(text.targets) as StoredOutbox["targets"],
  events: JSON.parse(text.events) as StoredOutbox["events"],
  user: JSON.parse(text.user) as unknown,
});
