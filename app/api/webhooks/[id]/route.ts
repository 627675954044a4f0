import { z } from "zod";
import { dashboardHandler, ok } from "@/server/http/dashboard";
import { otherMethods } from "@/server/http/handler";
import { deleteWebhook, setWebhookEnabled } from "@/server/webhooks/manage";

export const { GET, POST, PUT } = otherMethods("PATCH", "DELETE");

/** Enables or disables a webhook (events made while it is disabled are never sent to it). */
export const PATCH = dashboardHandler(
  { params: ["id"], permission: "webhooks:manage", body: z.object({ enabled: z.boolean() }) },
  async ({ params, body }) => {
    await setWebhookEnabled(params.id, body.enabled);
    return ok({});
  },
);

/** Removes a webhook and its deliveries. */
export const DELETE = dashboardHandler(
  { params: ["id"], permission: "webhooks:manage" },
  async ({ params }) => {
    await deleteWebhook(params.id);
    return ok({});
  },
);
