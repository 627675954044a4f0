import { z } from "zod";
import { sessionAuthKey } from "@/server/auth/sessions";
import { dashboardHandler, ok } from "@/server/http/dashboard";
import { intIn } from "@/server/http/fields";
import { otherMethods } from "@/server/http/handler";
import { TRAIL, userTrail } from "@/server/users/trail";

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

/** GET /api/users/{id}/trail?limit= : a user's recent locations, newest first (the map's trail). */
export const GET = dashboardHandler(
  {
    params: ["id"],
    permission: "users:read",
    query: z.object({ limit: intIn(TRAIL.min, TRAIL.max, TRAIL.default) }),
  },
  async ({ params, session, query }) =>
    ok({ locations: await userTrail(sessionAuthKey(session), params.id, query.limit) }),
);
