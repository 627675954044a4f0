import { withTimeZone } from "@/server/geo/time-zone";
import { searchText } from "@/server/geocode/forward";
import { forwardQuery } from "@/server/geocode/schema";
import { handler, reply, otherMethods } from "@/server/http/handler";

export { OPTIONS } from "@/server/http/handler";
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

/**
 * GET /v1/geocode/forward?query= : addresses for free text (docs/api.md#forward-geocoding),
 * best first; `layers`, `country` filter, `near` biases (and adds `distance`), `limit` 1–100.
 */
export const GET = handler(
  { access: "search", permission: "context:read", query: forwardQuery },
  async ({ query: q }) =>
    reply({
      addresses: searchText(q.query, {
        limit: q.limit,
        ...(q.layers && { layers: q.layers }),
        ...(q.country && { countries: q.country }),
        ...(q.near && { near: [q.near.longitude, q.near.latitude] }),
      }).map((a) => withTimeZone(a)),
    }),
);
