/**
 * How a webhook's requests are made from the events it is owed (docs/webhooks.md#what-is-sent): which
 * events go together in one request, and the request's body. One file per format, listed in
 * ./index.ts under the name a webhook's `mode` gives.
 */
export interface WebhookFormat {
  /** The events' groups, one per request, in order. */
  group<E>(events: readonly E[]): E[][];
  /** A request's body: the events' JSON and the user's JSON text, as the receiver parses them. */
  body(events: readonly unknown[], userJson: string): string;
}
