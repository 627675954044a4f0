import { type Position } from "@/server/geo/distance";
import { handler, otherMethods, reply } from "@/server/http/handler";
import { geodesicMeters } from "@/server/routing/engine";
import { routeInWorker, transitInWorker } from "@/server/planner/pool";
import type { TransitResult } from "@/server/transit/engine";
import { DateTime } from "luxon";
import { distanceOf, durationOf, geometryOf } from "@/server/routing/format";
import type { Mode } from "@/server/routing/profiles";
import { invalid } from "@/server/errors";
import { UNAVAILABLE, avoidMask, distanceQuery, farPoint, profileOf } from "@/server/routing/schema";

export { OPTIONS } from "@/server/http/handler";
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

/** A transit answer on the wire: distance, duration (waiting included), times, and the legs with `details`. */
function transitOf(
  r: TransitResult,
  units: "metric" | "imperial",
  details: boolean,
  geometry: "linestring" | "polyline5" | "polyline6" | undefined,
) {
  if ("unrouted" in r) {
    return {
      unavailable: UNAVAILABLE[r.unrouted],
      walking: { distance: distanceOf(r.walking.meters, units), duration: durationOf(r.walking.seconds) },
    };
  }
  const time = (unix: number) =>
    DateTime.fromSeconds(unix, { zone: r.timezone }).toISO({ suppressMilliseconds: true });
  return {
    distance: distanceOf(r.meters, units),
    duration: durationOf(r.seconds),
    departureTime: time(r.departure),
    arrivalTime: time(r.arrival),
    ...(r.walkingOnly && { walkingOnly: true }),
    ...(details && {
      legs: r.legs.map((l) => ({
        mode: l.mode,
        distance: distanceOf(l.meters, units),
        duration: durationOf(l.arrival - l.departure),
        departureTime: time(l.departure),
        arrivalTime: time(l.arrival),
        from: l.from,
        to: l.to,
        ...(l.route && { route: l.route }),
        ...(l.trip && { trip: l.trip }),
        ...(l.stops !== undefined && { stops: l.stops }),
        ...(l.seated && { seated: true }),
        ...(l.pickup && { pickup: l.pickup }),
        ...(l.dropOff && { dropOff: l.dropOff }),
        ...(geometry && { geometry: geometryOf(l.path, geometry) }),
      })),
    }),
  };
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
    const asked = modes.filter((m) => m !== "transit");
    // truck and motorbike ride the car profile: each profile is routed once.
    const road = [...new Set(asked.map(profileOf))] as Mode[];
    const routes: Record<string, unknown> = {
      geodesic: { distance: distanceOf(geodesicMeters(origin, destination), q.units) },
    };
    const results = await routeInWorker(origin, destination, road, avoid, !!q.geometry);
    const far = farPoint(results);
    if (far) throw invalid(far, `no road within 1 km that ${asked.join(" or ")} may use`);
    for (const mode of asked) {
      const r = results.find((x) => x.mode === profileOf(mode))!;
      routes[mode] =
        "leg" in r
          ? {
              distance: distanceOf(r.leg.meters, q.units),
              duration: durationOf(r.leg.seconds),
              ...(q.geometry && r.leg.path && { geometry: geometryOf(r.leg.path, q.geometry) }),
            }
          : { unavailable: UNAVAILABLE[r.unrouted] };
    }
    if (modes.includes("transit")) {
      const departure = q.departureTime ?? { at: Math.floor(Date.now() / 1000) };
      routes.transit = transitOf(
        await transitInWorker(origin, destination, departure),
        q.units,
        q.details,
        q.geometry,
      );
    }
    return reply({ routes });
  },
);
