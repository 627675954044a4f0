import { FORMATS } from "./formats";
import type { DeliveryWrite, OutboxWrite, StoredOutbox, WebhookTarget } from "../storage/webhook-records";

/**
 * The outbox (docs/webhooks.md#delivery), in two steps, both pure:
 * - `outboxFor`: what one location update's events owe the world's enabled webhooks, as one row
 *   that the tracking transaction writes with the events, whatever the number of webhooks: the
 *   targets, and the events and user exactly as the API serialized them at that moment;
 * - `splitOutbox`: that row as the requests each webhook is owed (grouped and written by the
 *   webhook's format, ./formats/), which a sender sends straight from the row, or writes into
 *   the webhooks' queues, off the tracking thread.
 */

export type OutboxEvent = OutboxWrite["events"][number];

const wants = (target: WebhookTarget, e: OutboxEvent) => !target.types || target.types.includes(e.type);

/** The outbox row of an update; null when no webhook wants any of its events. */
export function outboxFor(
  targets: readonly WebhookTarget[],
  events: readonly OutboxEvent[],
  user: { id: string; live: boolean; wire: unknown },
  clock: { wall(): Date },
): OutboxWrite | null {
  const owed = targets.filter((t) => events.some((e) => wants(t, e)));
  if (!owed.length) return null;
  return {
    live: user.live,
    userId: user.id,
    targets: owed,
    events: [...events],
    user: user.wire,
    // The machine's time, not the events' strictly increasing one, which runs ahead of it under
    // load (seen: 40 s ahead after a minute at 1,500 updates/s, and nothing was due until then).
    createdAt: clock.wall(),
  };
}

/**
 * A request's id: the same whenever its row is split (by its own sender, or after a crash by
 * another), so a request sent again across a crash carries the same webhook-id. Its row's
 * creation (seconds), seq, the webhook and the request's place among the webhook's: 26 hex digits,
 * never one of the 24-digit ids of other deliveries (a test event, a redelivery).
 */
export function requestId(row: Pick<StoredOutbox, "seq" | "createdAt">, webhookSeq: number, index: number) {
  const hex = (n: number, width: number) => n.toString(16).padStart(width, "0");
  return (
    hex(Math.floor(row.createdAt.getTime() / 1000), 8) + hex(row.seq, 10) + hex(webhookSeq, 4) + hex(index, 4)
  );
}

/**
 * The requests an outbox row owes the webhooks among `webhooks` (those that still exist), due
 * `now`; made when the row was. Webhooks of the same mode and types owe the same requests: their
 * bodies are made once. Ids are `requestId`s unless `newId` says otherwise.
 */
export function splitOutbox(
  row: StoredOutbox,
  webhooks: ReadonlySet<number>,
  now: Date,
  newId: (webhookSeq: number, index: number) => string = (w, i) => requestId(row, w, i),
): DeliveryWrite[] {
  const deliveries: DeliveryWrite[] = [];
  const made = new Map<string, { types: string; eventIds: string; body: string }[]>();
  for (const target of row.targets) {
    if (!webhooks.has(target.seq)) continue;
    const key = `${target.mode}|${target.types?.join(",") ?? "*"}`;
    let requests = made.get(key);
    if (!requests) made.set(key, (requests = requestsFor(target, row.events, row.userJson)));
    for (const [index, r] of requests.entries()) {
      deliveries.push({
        id: newId(target.seq, index),
        webhookSeq: target.seq,
        live: row.live,
        userId: row.userId,
        ...r,
        nextAttemptAt: now,
        createdAt: row.createdAt,
      });
    }
  }
  return deliveries;
}

/** The requests one webhook is owed for these events, as its format groups and writes them. */
function requestsFor(target: WebhookTarget, events: readonly OutboxEvent[], userJson: string) {
  const format = FORMATS[target.mode];
  return format.group(events.filter((e) => wants(target, e))).map((group) => ({
    types: group.map((e) => e.type).join(","),
    eventIds: group.map((e) => e.id).join(","),
    body: format.body(
      group.map((e) => e.wire),
      userJson,
    ),
  }));
}
