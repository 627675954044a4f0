import type { StoredWebhook } from "../../storage/webhook-records";
import type { WebhookFormat } from "./format";
import { multiple } from "./multiple";
import { single } from "./single";

/** The formats by the name a webhook's `mode` gives. */
export const FORMATS: Record<StoredWebhook["mode"], WebhookFormat> = { single, multiple };
