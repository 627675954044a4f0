import { z } from "zod";
import { EVENT_TYPES } from "@/lib/types";
import { dashboardHandler, ok } from "@/server/http/dashboard";
import { otherMethods } from "@/server/http/handler";
import { createWebhook, listWebhooks, webhookView } from "@/server/webhooks/manage";

export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");

/** The webhooks, each with its recent failure rate (never a token). */
export const GET = dashboardHandler({ permission: "webhooks:manage" }, async () =>
  ok({ webhooks: await Promise.all((await listWebhooks()).map(webhookView)) }),
);

const createSchema = z.object({
  url: z.string().trim().min(1, "is required").max(2000),
  live: z.boolean().default(false),
  mode: z.enum(["single", "multiple"], { message: "must be single or multiple" }).default("single"),
  types: z
    .array(z.enum(EVENT_TYPES as [string, ...string[]], { message: "must be event types" }))
    .max(EVENT_TYPES.length)
    .optional(),
});

/** Makes a webhook; the response is the only time its signing token is shown. */
export const POST = dashboardHandler(
  { permission: "webhooks:manage", body: createSchema },
  async ({ body }) => {
    const { webhook, token } = await createWebhook(body);
    return ok({ webhook: await webhookView(webhook), token }, 201);
  },
);
