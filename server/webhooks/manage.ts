import { EVENT_TYPES } from "../../lib/types";
import { ApiError } from "../errors";
import type { StoredDelivery, StoredWebhook } from "../storage/webhook-records";
import { storage } from "../storage";
import { newId } from "../storage/ids";
import { parseWebhookUrl, privateAddressOf } from "./address-guard";
import { FORMATS } from "./formats";
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
  const body = FORMATS[webhook.mode].body([event], JSON.stringify(user));
  const deliveryId = newId(now.getTime());
  await storage().webhooks.enqueue({
    id: deliveryId,
    webhookSeq: webhook.seq,
    live: webhook.live,
    userId: user._id,
    types: event.type,
    eventIds: event._id,
    body,
    nextAttemptAt: now,
    createdAt: now,
  });
  return deliveryId;
}

/** How many recent deliveries a webhook's failure rate is taken over. */
const RECENT = 100;

/** A webhook as the dashboard shows it: never its token; its recent failure rate and state. */
export async function webhookView(w: StoredWebhook) {
  const recent = await storage().webhooks.deliveries(w.seq, RECENT);
  const tried = recent.filter((d) => d.attempts > 0);
  const failedNow = tried.filter((d) => d.status !== "delivered");
  const lastDone = recent.find((d) => d.status !== "pending");
  return {
    _id: w.id,
    url: w.url,
    live: w.live,
    mode: w.mode,
    types: w.types,
    enabled: w.enabled,
    createdAt: w.createdAt.toISOString(),
    updatedAt: w.updatedAt.toISOString(),
    /** the share of the recent deliveries tried whose last attempt failed */
    failureRate: tried.length ? failedNow.length / tried.length : 0,
    pending: recent.filter((d) => d.status === "pending").length,
    /** its newest finished delivery was given up on after 24 hours of retries */
    failing: lastDone?.status === "failed",
  };
}

export type DeliveryView = ReturnType<typeof deliveryView>;

export function deliveryView(d: StoredDelivery) {
  return {
    _id: d.id,
    createdAt: d.createdAt.toISOString(),
    types: d.types.split(","),
    eventIds: d.eventIds.split(","),
    status: d.status,
    attempts: d.attempts,
    lastAttemptAt: d.lastAttemptAt?.toISOString() ?? null,
    lastStatus: d.lastStatus,
    lastError: d.lastError,
    nextAttemptAt: d.status === "pending" ? d.nextAttemptAt.toISOString() : null,
    deliveredAt: d.deliveredAt?.toISOString() ?? null,
  };
}

/** A webhook's deliveries, newest first, a page at a time. */
export async function deliveryPage(id: string, page: number, size: number) {
  const webhook = await storage().webhooks.byId(id);
  if (!webhook) throw new ApiError("not_found", "no such webhook", "id");
  const [rows, total] = await Promise.all([
    storage().webhooks.deliveries(webhook.seq, size, (page - 1) * size),
    storage().webhooks.countDeliveries(webhook.seq),
  ]);
  return { deliveries: rows.map(deliveryView), total };
}

/**
 * Sends a past delivery again (any status): a new delivery with the same body and a new
 * webhook-id, so a receiver that drops duplicates takes it.
 */
export async function redeliver(deliveryId: string) {
  const d = await storage().webhooks.deliveryById(deliveryId);
  if (!d) throw new ApiError("not_found", "no such delivery", "id");
  const now = new Date();
  const id = newId(now.getTime());
  await storage().webhooks.enqueue({
    id,
    webhookSeq: d.webhookSeq,
    live: d.live,
    userId: d.userId,
    types: d.types,
    eventIds: d.eventIds,
    body: d.body,
    nextAttemptAt: now,
    createdAt: now,
  });
  return id;
}
