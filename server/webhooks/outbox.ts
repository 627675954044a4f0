import type { DeliveryWrite, WebhookTarget } from "../storage";

/**
 * The outbox of one location update (docs/webhooks.md): for each enabled webhook of the world,
 * the requests its events owe it, made now so that they carry the event and user exactly as the
 * API serialized them at that moment. Pure: the tracking decision calls it and the store writes
 * the result in the transaction that writes the events.
 */

/** Radar sends at most this many events in one request of a "multiple" webhook. */
export const EVENTS_PER_REQUEST = 5;

export interface OutboxEvent {
  id: string;
  type: string;
  /** the event as GET /v1/events/{id} serializes it */
  wire: unknown;
}

export function outboxFor(
  targets: readonly WebhookTarget[],
  events: readonly OutboxEvent[],
  user: { id: string; live: boolean; wire: unknown },
  clock: { wall(): Date; newId(ms?: number): string },
): DeliveryWrite[] {
  const deliveries: DeliveryWrite[] = [];
  // Webhooks of the same mode and types owe the same requests: their bodies are made once.
  const made = new Map<string, { types: string; eventIds: string; body: string }[]>();
  for (const target of targets) {
    const key = `${target.mode}|${target.types?.join(",") ?? "*"}`;
    let requests = made.get(key);
    if (!requests) {
      requests = requestsFor(target, events, user.wire);
      made.set(key, requests);
    }
    for (const r of requests) {
      // The machine's time, not the events' strictly increasing one, which runs ahead of it under
      // load (seen: 40 s ahead after a minute at 1,500 updates/s, and nothing was due until then).
      const now = clock.wall();
      deliveries.push({
        id: clock.newId(now.getTime()),
        webhookSeq: target.seq,
        live: user.live,
        userId: user.id,
        ...r,
        nextAttemptAt: now,
        createdAt: now,
      });
    }
  }
  return deliveries;
}

/** The requests one webhook is owed for these events: one per event, or chunks of at most 5. */
function requestsFor(target: WebhookTarget, events: readonly OutboxEvent[], userWire: unknown) {
  const wanted = events.filter((e) => !target.types || target.types.includes(e.type));
  const chunks =
    target.mode === "single"
      ? wanted.map((e) => [e])
      : Array.from({ length: Math.ceil(wanted.length / EVENTS_PER_REQUEST) }, (_, i) =>
          wanted.slice(i * EVENTS_PER_REQUEST, (i + 1) * EVENTS_PER_REQUEST),
        );
  return chunks.map((chunk) => ({
    types: chunk.map((e) => e.type).join(","),
    eventIds: chunk.map((e) => e.id).join(","),
    body: JSON.stringify(
      target.mode === "single"
        ? { event: chunk[0]!.wire, user: userWire }
        : { events: chunk.map((e) => e.wire), user: userWire },
    ),
  }));
}
