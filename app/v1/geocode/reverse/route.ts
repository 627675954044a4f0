import { z } from "zod";
import { reverseGeocode } from "@/server/geocode/reverse";
import { handler, reply, otherMethods } from "@/server/http/handler";
import { coordinatePair } from "@/server/http/fields";
import { parseQuery } from "@/server/http/request";

export { OPTIONS } from "@/server/http/handler";
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

const schema = z.object({ coordinates: coordinatePair });

/** GET /v1/geocode/reverse?coordinates=lat,lng : the address at a coordinate. */
export const GET = handler("search", async ({ req }) => {
  const { coordinates } = parseQuery(req, schema);
  return reply({ addresses: reverseGeocode(coordinates.latitude, coordinates.longitude) });
});
