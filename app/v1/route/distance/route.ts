import { type Position } from "@/server/geo/distance";
import { handler, otherMethods, reply } from "@/server/http/handler";
import { geodesicMeters } from "@/server/routing/engine";
import { routeInWorker } from "@/server/routing/pool";
import { distanceOf, durationOf } from "@/server/routing/format";
import { encodePolyline } from "@/server/routing/polyline";
import type { Mode } from "@/server/routing/profiles";
import { invalid } from "@/server/http/errors";
import { UNAVAILABLE, avoidMask, distanceQuery, farPoint } from "@/server/routing/schema";

export { OPTIONS } from "@/server/http/handler";
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

/** A route's line as asked: GeoJSON, or an encoded polyline of 5 or 6 digits. */
function geometryOf(path: Position[], form: "linestring" | "polyline5" | "polyline6") {
  const rounded = path.map(
    ([lng, lat]) => [Math.round(lng * 1e6) / 1e6, Math.round(lat * 1e6) / 1e6] as Position,
  );
  if (form === "linestring") return { type: "LineString", coordinates: rounded };
  return { polyline: encodePolyline(rounded, form === "polyline5" ? 5 : 6) };
}

/**
 * GET /v1/route/distance (docs/api.md#route-distance): the geodesic, and per mode asked the
 * distance and duration of the fastest route over the imported roads, or `unavailable` with the
 * reason (never an invented distance).
 */
export const GET = handler(
  { access: "search", permission: "context:read", query: distanceQuery },
  async ({ query: q }) => {
    const origin: Position = [q.origin.longitude, q.origin.latitude];
    const destination: Position = [q.destination.longitude, q.destination.latitude];
    const avoid = avoidMask(q.avoid);
    const modes = q.modes!;
    const road = modes.filter((m): m is Mode => m !== "transit");
    const routes: Record<string, unknown> = {
      geodesic: { distance: distanceOf(geodesicMeters(origin, destination), q.units) },
    };
    const results = await routeInWorker(origin, destination, road, avoid, !!q.geometry);
    const far = farPoint(results);
    if (far) throw invalid(far, `no road within 1 km that ${road.join(" or ")} may use`);
    for (const r of results) {
      routes[r.mode] =
        "leg" in r
          ? {
              distance: distanceOf(r.leg.meters, q.units),
              duration: durationOf(r.leg.seconds),
              ...(q.geometry && r.leg.path && { geometry: geometryOf(r.leg.path, q.geometry) }),
            }
          : { unavailable: UNAVAILABLE[r.unrouted] };
    }
    if (modes.includes("transit")) routes.transit = { unavailable: UNAVAILABLE.transit };
    return reply({ routes });
  },
);
