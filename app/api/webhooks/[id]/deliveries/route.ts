import { z } from "zod";
import { dashboardHandler, ok } from "@/server/http/dashboard";
import { otherMethods } from "@/server/http/handler";
import { deliveryPage } from "@/server/webhooks/manage";

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

const query = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  size: z.coerce.number().int().min(1).max(200).default(50),
});

/** A webhook's deliveries, newest first, a page at a time (server-side paging). */
export const GET = dashboardHandler(
  { params: ["id"], permission: "webhooks:manage", query },
  async ({ params, query }) => ok(await deliveryPage(params.id, query.page, query.size)),
);
