import { z } from "zod";
import { SEARCH } from "@/server/geofences/schema";
import { searchPlaces, serializePlace } from "@/server/geodata/places";
import { handler, reply, otherMethods } from "@/server/http/handler";
import { commaList, coordinatePair, intIn } from "@/server/http/fields";

export { OPTIONS } from "@/server/http/handler";
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

const schema = z.object({
  near: coordinatePair,
  radius: intIn(SEARCH.radius.min, SEARCH.radius.max, SEARCH.radius.default),
  chains: commaList,
  categories: commaList,
  groups: commaList,
  limit: intIn(SEARCH.limit.min, SEARCH.limit.max, SEARCH.limit.default),
});

/**
 * GET /v1/search/places: imported places near a point (docs/data.md#places), nearest first, each
 * with its distance in meters. Filters (chain slugs, category slugs, groups) combine with AND;
 * the values of one filter with OR. Without imported data the answer is an empty list.
 */
export const GET = handler(
  { access: "search", permission: "context:read", query: schema },
  async ({ query: q }) => {
    const hits = searchPlaces(q.near.longitude, q.near.latitude, q);
    return reply({
      places: hits.map(({ place, distance }) => ({
        ...serializePlace(place),
        distance: Math.round(distance * 10) / 10,
      })),
    });
  },
);
