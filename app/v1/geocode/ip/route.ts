import { z } from "zod";
import { withTimeZone } from "@/server/geo/time-zone";
import { clientAddress } from "@/server/http/client-address";
import { handler, reply, otherMethods } from "@/server/http/handler";
import { geocodeIp } from "@/server/regions/ip";

export { OPTIONS } from "@/server/http/handler";
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

/** GET /v1/geocode/ip?ip= : the area an IP address belongs to; without `ip`, the caller's. */
export const GET = handler(
  { access: "search", permission: "context:read", query: z.object({ ip: z.string().max(100).optional() }) },
  async ({ req, query }) => {
    const found = geocodeIp(query.ip ?? clientAddress(req));
    return reply({ ...found, address: withTimeZone(found.address) });
  },
);
