import { withTimeZone } from "@/server/geo/time-zone";
import { searchText } from "@/server/geocode/forward";
import { autocompleteQuery } from "@/server/geocode/schema";
import { clientAddress } from "@/server/http/client-address";
import { handler, reply, otherMethods } from "@/server/http/handler";
import { ipBias } from "@/server/regions/ip";

export { OPTIONS } from "@/server/http/handler";
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

/**
 * GET /v1/search/autocomplete?query=&near= : addresses while typing (docs/api.md#autocomplete),
 * the last word as a prefix, by relevance with `near` as a bias, each with its `distance`;
 * without `near`, the caller's IP location is the bias (as Radar does for radar-sdk-js), or none
 * when its address has no known location. Dashboard sessions call it too (the map's search box).
 */
export const GET = handler(
  { access: "search", permission: "context:read", query: autocompleteQuery },
  async ({ req, query: q }) => {
    const near = q.near ? ([q.near.longitude, q.near.latitude] as const) : ipBias(clientAddress(req));
    return reply({
      addresses: searchText(q.query, {
        prefix: true,
        limit: q.limit,
        ...(near && { near: [near[0], near[1]] }),
        ...(q.layers && { layers: q.layers }),
        ...(q.countryCode && { countries: q.countryCode }),
      }).map((a) => withTimeZone(a)),
    });
  },
);
