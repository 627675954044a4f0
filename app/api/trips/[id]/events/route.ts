import { sessionAuthKey } from "@/server/auth/sessions";
import { dashboardHandler, ok } from "@/server/http/dashboard";
import { otherMethods } from "@/server/http/handler";
import { tripEvents } from "@/server/tracking/trips/board";

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

/** GET /api/trips/{id}/events : the trip's timeline. */
export const GET = dashboardHandler(
  { params: ["id"], permission: "trips:read" },
  async ({ session, params }) => ok(await tripEvents(sessionAuthKey(session), params.id)),
);
