import type { WebhookFormat } from "./format";

/** Radar sends at most this many events in one request of a "multiple" webhook. */
export const EVENTS_PER_REQUEST = 5;

/** Up to EVENTS_PER_REQUEST events per request, in order: `{"events": […], "user": …}`. */
export const multiple: WebhookFormat = {
  group: (events) =>
    Array.from({ length: Math.ceil(events.length / EVENTS_PER_REQUEST) }, (_, i) =>
      events.slice(i * EVENTS_PER_REQUEST, (i + 1) * EVENTS_PER_REQUEST),
    ),
  body: (events, userJson) => `{"events":${JSON.stringify(events)},"user":${userJson}}`,
};
