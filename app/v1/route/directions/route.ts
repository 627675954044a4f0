import type { Position } from "@/server/geo/distance";
import { invalid } from "@/server/errors";
import { handler, otherMethods, reply } from "@/server/http/handler";
import { directionsInWorker } from "@/server/planner/pool";
import type { DirectionsLeg } from "@/server/routing/engine";
import { distanceOf, durationOf, geometryOf } from "@/server/routing/format";
import { UNAVAILABLE, avoidMask, directionsQuery, profileOf } from "@/server/routing/schema";

export { OPTIONS } from "@/server/http/handler";
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

/**
 * GET /v1/route/directions (docs/api.md#route-directions): the route through the locations in
 * order, leg by leg as the distance endpoint routes each pair (the same numbers), each leg with
 * its turn-by-turn steps and their instructions in `lang`, from the routing engine's own graph
 * (server/routing/directions.ts), computed in a routing worker; with `alternatives`, other
 * routes after the best.
 */
export const GET = handler(
  { access: "search", permission: "context:read", query: directionsQuery },
  async ({ query: q }) => {
    const points: Position[] = q.locations.map((c) => [c.longitude, c.latitude]);
    const result = await directionsInWorker(
      points,
      profileOf(q.mode),
      avoidMask(q.avoid),
      q.lang,
      q.alternatives,
    );
    if ("unrouted" in result) {
      const far =
        result.unrouted === "origin-far"
          ? result.leg
          : result.unrouted === "destination-far"
            ? result.leg + 1
            : -1;
      if (far >= 0)
        throw invalid("locations", `location ${far + 1} has no road within 1 km that ${q.mode} may use`);
      return reply({
        routes: [],
        unavailable: `leg ${result.leg + 1} (location ${result.leg + 1} to ${result.leg + 2}): ${UNAVAILABLE[result.unrouted === "no-roads" ? "no-roads-here" : result.unrouted]}`,
      });
    }
    const at = (i: number) => ({ latitude: q.locations[i]!.latitude, longitude: q.locations[i]!.longitude });
    const routeOf = (legs: DirectionsLeg[]) => {
      const meters = legs.reduce((sum, l) => sum + l.leg.meters, 0);
      const seconds = legs.reduce((sum, l) => sum + l.leg.seconds, 0);
      const line = legs.flatMap((l, k) => (k === 0 ? (l.leg.path ?? []) : (l.leg.path ?? []).slice(1)));
      return {
        distance: distanceOf(meters, q.units),
        duration: durationOf(seconds),
        geometry: geometryOf(line, q.geometry),
        legs: legs.map(({ leg, steps }, i) => ({
          startLocation: at(i),
          endLocation: at(i + 1),
          distance: distanceOf(leg.meters, q.units),
          duration: durationOf(leg.seconds),
          geometry: geometryOf(leg.path ?? [points[i]!, points[i + 1]!], q.geometry),
          steps: steps.map((s) => ({
            instruction: s.instruction,
            maneuver: {
              type: s.type,
              ...(s.modifier && { modifier: s.modifier }),
              ...(s.exit !== undefined && { exit: s.exit }),
              bearingBefore: s.bearingBefore,
              bearingAfter: s.bearingAfter,
              location: { latitude: s.location[1], longitude: s.location[0] },
            },
            ...(s.name && { name: s.name }),
            ...(s.ref && { ref: s.ref }),
            ...(s.roadClass && { roadClass: s.roadClass }),
            mode: s.mode,
            distance: distanceOf(s.meters, q.units),
            duration: durationOf(s.seconds),
            geometry: geometryOf(s.path, q.geometry),
          })),
        })),
      };
    };
    return reply({ routes: result.routes.map(routeOf) });
  },
);
