import { dashboardHandler, ok } from "@/server/http/dashboard";
import { otherMethods } from "@/server/http/handler";
import { sendTestEvent } from "@/server/webhooks/manage";

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");

/** Queues a test event for the webhook. */
export const POST = dashboardHandler({ params: ["id"], permission: "webhooks:manage" }, async ({ params }) =>
  ok({ delivery: await sendTestEvent(params.id) }, 201),
);
