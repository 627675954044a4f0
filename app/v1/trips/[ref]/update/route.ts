import { handler, otherMethods, reply } from "@/server/http/handler";
import { updateTrip } from "@/server/tracking/trips/api";
import { updateTripSchema } from "@/server/tracking/trips/schema";

export { OPTIONS } from "@/server/http/handler";
export const { GET, POST, PUT, DELETE } = otherMethods("PATCH");

/** The SDKs' updateTrip, completeTrip and cancelTrip. */
export const PATCH = handler(
  {
    params: ["ref"],
    access: "publishable",
    perDevice: true,
    permission: "trips:write",
    body: updateTripSchema,
  },
  async ({ key, params, body }) => reply(await updateTrip(key, params.ref, body)),
);
