import { predictConfidence } from "@/server/events/prediction";
import { sessionAuthKey } from "@/server/auth/sessions";
import { dashboardHandler, ok } from "@/server/http/dashboard";
import { otherMethods } from "@/server/http/handler";

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

/** The confidence later events like this one get, for each verdict (for the review screen). */
export const GET = dashboardHandler(
  { params: ["id"], permission: "events:read" },
  async ({ params, session }) =>
    ok({
      prediction: await predictConfidence(sessionAuthKey(session), params.id),
    }),
);
