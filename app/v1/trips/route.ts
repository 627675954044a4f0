import { handler, otherMethods, reply } from "@/server/http/handler";
import { createTrip, listTrips } from "@/server/tracking/trips/api";
import { createTripSchema, listTripsSchema } from "@/server/tracking/trips/schema";

export { OPTIONS } from "@/server/http/handler";
export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");

export const GET = handler(
  { access: "secret", permission: "trips:read", query: listTripsSchema },
  async ({ key, query }) => {
    const { trips, hasMore } = await listTrips(key, query);
    return reply({ trips }, hasMore);
  },
);

/** Devices start their own trips with a publishable key (the SDKs' startTrip); servers with a secret one. */
export const POST = handler(
  { access: "publishable", perDevice: true, permission: "trips:write", body: createTripSchema },
  async ({ key, body }) => reply(await createTrip(key, body)),
);
