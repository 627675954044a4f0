import { handler, otherMethods, reply } from "@/server/http/handler";
import { matchInWorker } from "@/server/planner/pool";
import { distanceOf, durationOf, geometryOf, speedLimitOf } from "@/server/routing/format";
import { UNAVAILABLE, matchBody, profileOf } from "@/server/routing/schema";

export { OPTIONS } from "@/server/http/handler";
export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");

/**
 * POST /v1/route/match (docs/api.md#route-match): a noisy trace snapped onto the roads by the
 * routing engine's hidden-Markov matcher (server/routing/match.ts), in a routing worker: each
 * matched point on its road, the road line with its length and time, and the roads' attributes
 * asked for. Where no road joins two points the trace breaks into stretches; it never jumps.
 */
export const POST = handler(
  { access: "search", permission: "context:read", body: matchBody },
  async ({ body: b }) => {
    const result = await matchInWorker(b.path, profileOf(b.mode));
    if ("unrouted" in result) {
      return reply({ matchedPath: [], stretches: [], unavailable: UNAVAILABLE["no-roads-here"] });
    }
    const { matched, stretches } = result;
    const meters = stretches.reduce((s, x) => s + x.meters, 0);
    const seconds = stretches.reduce((s, x) => s + x.seconds, 0);
    const wanted = new Set(b.roadAttributes);
    return reply({
      matchedPath: matched.map((m) => ({
        coordinates: [Math.round(m.lng * 1e6) / 1e6, Math.round(m.lat * 1e6) / 1e6],
        originalIndex: m.index,
      })),
      distance: distanceOf(meters, b.units),
      duration: durationOf(seconds),
      // One line when the roads join the whole trace; else each stretch has its own.
      ...(stretches.length === 1 && { geometry: geometryOf(stretches[0]!.path, b.geometry) }),
      stretches: stretches.map((s) => ({
        startIndex: s.first,
        endIndex: s.last,
        distance: distanceOf(s.meters, b.units),
        duration: durationOf(s.seconds),
        geometry: geometryOf(s.path, b.geometry),
      })),
      ...(wanted.size && {
        roadAttributes: stretches.flatMap((s) =>
          s.roads.map((r) => {
            const limit = speedLimitOf(r.label.maxspeed);
            const names = [r.label.name, r.label.ref].filter(Boolean);
            return {
              from: r.from.map((x) => Math.round(x * 1e6) / 1e6),
              to: r.to.map((x) => Math.round(x * 1e6) / 1e6),
              distance: distanceOf(r.meters, b.units),
              ...(wanted.has("speedLimit") && { speedLimit: limit ?? null }),
              ...(wanted.has("names") && { names }),
              ...(wanted.has("roadClass") && { roadClass: r.label.class || null }),
            };
          }),
        ),
      }),
    });
  },
);
