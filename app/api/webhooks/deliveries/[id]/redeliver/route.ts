import { dashboardHandler, ok } from "@/server/http/dashboard";
import { otherMethods } from "@/server/http/handler";
import { redeliver } from "@/server/webhooks/manage";

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");

/** Sends a past delivery again, as a new delivery (a new webhook-id) with the same body. */
export const POST = dashboardHandler({ params: ["id"], permission: "webhooks:manage" }, async ({ params }) =>
  ok({ delivery: await redeliver(params.id) }, 201),
);
