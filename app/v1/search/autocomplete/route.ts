import { withTimeZone } from "@/server/geo/time-zone";
import { searchText } from "@/server/geocode/forward";
import { autocompleteQuery } from "@/server/geocode/schema";
import { handler, reply, otherMethods } from "@/server/http/handler";

export { OPTIONS } from "@/server/http/handler";
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

/**
 * GET /v1/search/autocomplete?query=&near= : addresses while typing (docs/api.md#autocomplete),
 * the last word as a prefix, by relevance with `near` as a bias, each with its `distance`.
 * Dashboard sessions call it too (the map's search box).
 */
export const GET = handler(
  { access: "search", permission: "context:read", query: autocompleteQuery },
  async ({ query: q }) =>
    reply({
      addresses: searchText(q.query, {
        prefix: true,
        limit: q.limit,
        near: [q.near.longitude, q.near.latitude],
        ...(q.layers && { layers: q.layers }),
        ...(q.countryCode && { countries: q.countryCode }),
      }).map((a) => withTimeZone(a)),
    }),
);
