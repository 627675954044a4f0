import { handler, otherMethods, reply } from "@/server/http/handler";
import { deleteTrip, getTrip, updateTrip } from "@/server/tracking/trips/api";
import { getTripSchema, updateTripSchema } from "@/server/tracking/trips/schema";

export { OPTIONS } from "@/server/http/handler";
export const { POST, PUT } = otherMethods("GET", "PATCH", "DELETE");

/** A trip by _id or externalId. */
export const GET = handler(
  { params: ["ref"], access: "secret", permission: "trips:read", query: getTripSchema },
  async ({ key, params, query }) => reply({ trip: await getTrip(key, params.ref, query.includeLocations) }),
);

/** Older SDKs update a trip here (newer ones at ./update). */
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

export const DELETE = handler(
  { params: ["ref"], access: "secret", permission: "trips:write" },
  async ({ key, params }) => {
    await deleteTrip(key, params.ref);
    return reply({});
  },
);
