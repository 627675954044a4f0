import type { WebhookFormat } from "./format";

/** One event per request: `{"event": …, "user": …}`. */
export const single: WebhookFormat = {
  group: (events) => events.map((e) => [e]),
  body: (events, userJson) => `{"event":${JSON.stringify(events[0])},"user":${userJson}}`,
};
