import { dashboardHandler, ok } from "@/server/http/dashboard";
import { otherMethods } from "@/server/http/handler";
import { overview } from "@/server/operations/overview";

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

/** GET /api/overview: the overview page's figures for the session's world (docs/deployment.md). */
export const GET = dashboardHandler({ permission: "overview:read" }, async ({ session }) =>
  ok({ ...(await overview(session.live)) }),
);
