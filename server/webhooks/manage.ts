import { EVENT_TYPES } from "../../lib/types";
import { ApiError } from "../errors";
import { processOnce } from "../process-once";
import { type StoredWebhook, storage } from "../storage";
import { newId } from "../storage/ids";
import { parseWebhookUrl, privateAddressOf } from "./address-guard";
import { Sender } from "./deliver";
import { newToken } from "./sign";

/**
 * Webhooks as data (docs/webhooks.md): made, listed, enabled, disabled and removed by the CLI and
 * the dashboard alike. Tracking reads the enabled ones inside each update's transaction, so a
 * change is in effect for the next update, in every process.
 */

export interface WebhookInput {
  url: string;
  live: boolean;
  mode?: string;
  types?: string[] | null;
}

/** Makes a webhook; its token is returned here, once. */
export async function createWebhook(input: WebhookInput): Promise<{ webhook: StoredWebhook; token: string }> {
  const url = parseWebhookUrl(input.url);
  const mode = input.mode ?? "single";
  if (mode !== "single" && mode !== "multiple")
    throw new ApiError("invalid_input", "mode must be single or multiple", "mode");
  const types = input.types?.length ? input.types : null;
  const unknown = types?.filter((t) => !(EVENT_TYPES as string[]).includes(t));
  if (unknown?.length)
    throw new ApiError("invalid_input", `unknown event type ${unknown.join(", ")}`, "types");
  const refused = await privateAddressOf(url);
  if (refused) throw new ApiError("invalid_input", `url: ${refused}`, "url");
  const token = newToken();
  const now = new Date();
  const webhook = await storage().webhooks.create({
    id: newId(now.getTime()),
    live: input.live,
    url: url.toString(),
    mode,
    types,
    enabled: true,
    token,
    createdAt: now,
    updatedAt: now,
  });
  return { webhook, token };
}

export const listWebhooks = () => storage().webhooks.list();

export async function setWebhookEnabled(id: string, enabled: boolean): Promise<void> {
  if (!(await storage().webhooks.setEnabled(id, enabled, new Date())))
    throw new ApiError("not_found", "no such webhook", "id");
}

export async function deleteWebhook(id: string): Promise<void> {
  if (!(await storage().webhooks.delete(id))) throw new ApiError("not_found", "no such webhook", "id");
}

/** Queues a test event for the webhook (sent like any other, signed, retried). */
export async function sendTestEvent(id: string): Promise<string> {
  const webhook = await storage().webhooks.byId(id);
  if (!webhook) throw new ApiError("not_found", "no such webhook", "id");
  const now = new Date();
  const user = {
    _id: newId(now.getTime()),
    userId: "webhook-test",
    deviceId: "webhook-test",
    live: webhook.live,
  };
  const event = {
    _id: newId(now.getTime()),
    type: webhook.types?.[0] ?? "user.entered_geofence",
    createdAt: now.toISOString(),
    actualCreatedAt: now.toISOString(),
    live: webhook.live,
    user,
    location: { type: "Point", coordinates: [0, 0] },
    locationAccuracy: 10,
    confidence: 3,
    verification: 0,
    test: true,
  };
  const body = webhook.mode === "single" ? { event, user } : { events: [event], user };
  const deliveryId = newId(now.getTime());
  await storage().webhooks.enqueue({
    id: deliveryId,
    webhookSeq: webhook.seq,
    live: webhook.live,
    userId: user._id,
    types: event.type,
    eventIds: event._id,
    body: JSON.stringify(body),
    nextAttemptAt: now,
    createdAt: now,
  });
  return deliveryId;
}

/** Starts this process's sender (at server start). */
export function startWebhookSender(): void {
  processOnce("webhookSender", () => {
    const sender = new Sender(storage().webhooks);
    sender.start();
    return sender;
  });
}
