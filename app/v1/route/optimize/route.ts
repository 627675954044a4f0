import type { Position } from "@/server/geo/distance";
import { invalid } from "@/server/errors";
import { handler, otherMethods, reply } from "@/server/http/handler";
import { matrixInWorker, routeInWorker } from "@/server/planner/pool";
import { distanceOf, durationOf, geometryOf } from "@/server/routing/format";
import { bestOrder } from "@/server/routing/optimize";
import { UNAVAILABLE, avoidMask, farPoint, optimizeQuery, profileOf } from "@/server/routing/schema";

export { OPTIONS } from "@/server/http/handler";
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

/**
 * GET /v1/route/optimize (docs/api.md#route-optimize): the order of the locations between the
 * first and the last that makes the trip shortest in time (exact: server/routing/optimize.ts, on
 * the matrix of the routing engine), and the route in that order, leg by leg, as the distance
 * endpoint computes each leg (the same numbers), with each leg's line and the whole line.
 */
export const GET = handler(
  { access: "search", permission: "context:read", query: optimizeQuery },
  async ({ query: q }) => {
    const points: Position[] = q.locations.map((c) => [c.longitude, c.latitude]);
    const profile = profileOf(q.mode);
    const avoid = avoidMask(q.avoid);
    const matrix = await matrixInWorker(points, points, profile, avoid);
    // A point among the imported roads but more than 1 km from any this mode may use: an error.
    const far = points.findIndex((_, i) => farPoint(matrix[i]!.filter((_, j) => j !== i)) === "origin");
    if (far >= 0)
      throw invalid("locations", `location ${far + 1} has no road within 1 km that ${q.mode} may use`);
    const seconds = matrix.map((row, i) =>
      row.map((cell, j) => (i === j ? 0 : "leg" in cell ? cell.leg.seconds : Infinity)),
    );
    const best = bestOrder(seconds);
    const inOrder = (order: number[]) =>
      order.map((i) => ({
        latitude: q.locations[i]!.latitude,
        longitude: q.locations[i]!.longitude,
        originalIndex: i,
      }));
    if (!best) {
      // No order joins them all by road (no roads imported there, or none between some of them).
      const reason = matrix.flat().find((c) => "unrouted" in c && c.unrouted !== "no-route");
      return reply({
        route: { unavailable: UNAVAILABLE[reason && "unrouted" in reason ? reason.unrouted : "no-route"] },
        locations: inOrder(points.map((_, i) => i)),
      });
    }
    const legs = await Promise.all(
      best.order.slice(1).map(async (to, k) => {
        const from = best.order[k]!;
        const [r] = await routeInWorker(points[from]!, points[to]!, [profile], avoid, true);
        if (!r || !("leg" in r))
          throw new Error(`optimize: leg ${from} → ${to} has no route though the matrix had one`);
        return { from, to, leg: r.leg };
      }),
    );
    const meters = legs.reduce((sum, l) => sum + l.leg.meters, 0);
    const total = legs.reduce((sum, l) => sum + l.leg.seconds, 0);
    const line = legs.flatMap((l, k) => (k === 0 ? (l.leg.path ?? []) : (l.leg.path ?? []).slice(1)));
    const at = (i: number) => ({ latitude: q.locations[i]!.latitude, longitude: q.locations[i]!.longitude });
    return reply({
      route: {
        distance: distanceOf(meters, q.units),
        duration: durationOf(total),
        legs: legs.map((l) => ({
          startLocation: at(l.from),
          endLocation: at(l.to),
          distance: distanceOf(l.leg.meters, q.units),
          duration: durationOf(l.leg.seconds),
          geometry: geometryOf(l.leg.path ?? [points[l.from]!, points[l.to]!], q.geometry),
        })),
        geometry: geometryOf(line, q.geometry),
      },
      locations: inOrder(best.order),
    });
  },
);
