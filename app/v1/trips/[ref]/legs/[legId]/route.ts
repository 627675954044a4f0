import { handler, otherMethods, reply } from "@/server/http/handler";
import { updateLeg } from "@/server/tracking/trips/api";
import { legStatusSchema } from "@/server/tracking/trips/schema";

export { OPTIONS } from "@/server/http/handler";
export const { GET, POST, PUT, DELETE } = otherMethods("PATCH");

/** Sets a leg's status. */
export const PATCH = handler(
  { params: ["ref", "legId"], access: "publishable", permission: "trips:write", body: legStatusSchema },
  async ({ key, params, body }) => reply(await updateLeg(key, params.ref, params.legId, body.status)),
);
