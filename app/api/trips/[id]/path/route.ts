import { sessionAuthKey } from "@/server/auth/sessions";
import { dashboardHandler, ok } from "@/server/http/dashboard";
import { otherMethods } from "@/server/http/handler";
import { remainingRoute } from "@/server/tracking/trips/board";

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

/** GET /api/trips/{id}/path : the road left from the trip's user to its destination. */
export const GET = dashboardHandler(
  { params: ["id"], permission: "trips:read" },
  async ({ session, params }) => ok(await remainingRoute(sessionAuthKey(session), params.id)),
);
