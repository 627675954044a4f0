import { z } from "zod";
import { clientAddress } from "@/server/http/client-address";
import { handler, reply, otherMethods } from "@/server/http/handler";
import { parseQuery } from "@/server/http/request";
import { geocodeIp } from "@/server/regions/ip";

export { OPTIONS } from "@/server/http/handler";
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

const schema = z.object({ ip: z.string().max(100).optional() });

/** GET /v1/geocode/ip?ip= : the area an IP address belongs to; without `ip`, the caller's. */
export const GET = handler("search", async ({ req }) => {
  const { ip } = parseQuery(req, schema);
  return reply(geocodeIp(ip ?? clientAddress(req)));
});
