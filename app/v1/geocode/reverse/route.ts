import { z } from "zod";
import { withTimeZone } from "@/server/geo/time-zone";
import { reverseGeocode } from "@/server/geocode/reverse";
import { handler, reply, otherMethods } from "@/server/http/handler";
import { coordinatePair } from "@/server/http/fields";

export { OPTIONS } from "@/server/http/handler";
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

/** GET /v1/geocode/reverse?coordinates=lat,lng : the address at a coordinate. */
export const GET = handler(
  { access: "search", permission: "context:read", query: z.object({ coordinates: coordinatePair }) },
  async ({ query: { coordinates } }) =>
    reply({
      addresses: reverseGeocode([coordinates.longitude, coordinates.latitude]).map((a) => withTimeZone(a)),
    }),
);
