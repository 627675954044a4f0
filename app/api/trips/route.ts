import { sessionAuthKey } from "@/server/auth/sessions";
import { dashboardHandler, ok } from "@/server/http/dashboard";
import { otherMethods } from "@/server/http/handler";
import { boardQuery, tripsBoard } from "@/server/tracking/trips/board";

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

/** GET /api/trips?status&delayed&destinationGeofenceTag : the Trips page's trips, with their users' positions. */
export const GET = dashboardHandler(
  { permission: "trips:read", query: boardQuery },
  async ({ session, query }) => ok(await tripsBoard(sessionAuthKey(session), query)),
);
