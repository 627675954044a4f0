import { withTimeZone } from "@/server/geo/time-zone";
import { validateAddress, validateQuery } from "@/server/geocode/validate";
import { handler, otherMethods, reply } from "@/server/http/handler";

export { OPTIONS } from "@/server/http/handler";
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

/** GET /v1/addresses/validate: a structured address checked against the imported addresses. */
export const GET = handler(
  { access: "search", permission: "context:read", query: validateQuery },
  async ({ query }) => {
    const { address, result } = validateAddress(query);
    return reply({ address: withTimeZone(address as { latitude?: number; longitude?: number }), result });
  },
);
