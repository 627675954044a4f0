import type { Position } from "@/server/geo/distance";
import { invalid } from "@/server/errors";
import { handler, otherMethods, reply } from "@/server/http/handler";
import { isochroneInWorker } from "@/server/planner/pool";
import { UNAVAILABLE, avoidMask, isochroneQuery, profileOf } from "@/server/routing/schema";

export { OPTIONS } from "@/server/http/handler";
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

/**
 * GET /v1/route/isochrone (docs/api.md#route-isochrone): the area reachable from a point within
 * each of up to 4 travel times, as a GeoJSON FeatureCollection of MultiPolygons (holes where
 * nothing is reached), from the routing engine's own one-to-all search in a routing worker.
 */
export const GET = handler(
  { access: "search", permission: "context:read", query: isochroneQuery },
  async ({ query: q }) => {
    const origin: Position = [q.origin.longitude, q.origin.latitude];
    const result = await isochroneInWorker(origin, profileOf(q.mode), q.minutes, avoidMask(q.avoid));
    if ("unrouted" in result && result.unrouted === "origin-far")
      throw invalid("origin", `no road within 1 km that ${q.mode} may use`);
    return reply({
      origin: q.origin,
      mode: q.mode,
      isochrones: {
        type: "FeatureCollection",
        features:
          "contours" in result
            ? result.contours.map((c) => ({
                type: "Feature",
                properties: { minutes: c.minutes, mode: q.mode },
                geometry: { type: "MultiPolygon", coordinates: c.polygons },
              }))
            : [],
      },
      ...("unrouted" in result && {
        unavailable:
          result.unrouted === "no-roads" ? UNAVAILABLE["no-roads-here"] : UNAVAILABLE[result.unrouted],
      }),
    });
  },
);
