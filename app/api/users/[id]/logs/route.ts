import { z } from "zod";
import { sessionAuthKey } from "@/server/auth/sessions";
import { dashboardHandler, ok } from "@/server/http/dashboard";
import { intIn } from "@/server/http/fields";
import { otherMethods } from "@/server/http/handler";
import { LOGS_PER_DEVICE, deviceLogs } from "@/server/sdk/logs";
import { findUser } from "@/server/users/read";

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

/** GET /api/users/{id}/logs?limit: what the user's device's SDK logged, newest first. */
export const GET = dashboardHandler(
  {
    params: ["id"],
    permission: "users:read",
    query: z.object({ limit: intIn(1, LOGS_PER_DEVICE, 200) }),
  },
  async ({ params, session, query }) => {
    const key = sessionAuthKey(session);
    const user = await findUser(key, params.id);
    return ok({ logs: await deviceLogs(key.live, user.deviceId, query.limit) });
  },
);
