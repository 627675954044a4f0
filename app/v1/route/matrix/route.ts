import { type Position } from "@/server/geo/distance";
import { handler, otherMethods, reply } from "@/server/http/handler";
import { distanceOf, durationOf } from "@/server/routing/format";
import { matrixInWorker } from "@/server/planner/pool";
import { invalid } from "@/server/errors";
import { UNAVAILABLE, avoidMask, farPoint, matrixQuery, profileOf } from "@/server/routing/schema";

export { OPTIONS } from "@/server/http/handler";
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

/**
 * GET /v1/route/matrix (docs/api.md#route-matrix): the fastest routes of one mode from every
 * origin to every destination (at most 625 pairs), computed in a routing worker.
 */
export const GET = handler(
  { access: "search", permission: "context:read", query: matrixQuery },
  async ({ query: q }) => {
    const positions = (cs: typeof q.origins): Position[] => cs.map((c) => [c.longitude, c.latitude]);
    const avoid = avoidMask(q.avoid);
    const rows =
      q.mode === "transit"
        ? q.origins.map(() => q.destinations.map(() => ({ unrouted: "transit" as const })))
        : await matrixInWorker(positions(q.origins), positions(q.destinations), profileOf(q.mode), avoid);
    // A point far from every road the mode may use (but among the imported roads) is an error.
    const farOrigin = rows.findIndex((row) => farPoint(row) === "origin");
    if (farOrigin >= 0) {
      throw invalid("origins", `origin ${farOrigin + 1} has no road within 1 km that ${q.mode} may use`);
    }
    const farDestination = q.destinations.findIndex(
      (_, j) => farPoint(rows.map((row) => row[j]!)) === "destination",
    );
    if (farDestination >= 0) {
      throw invalid(
        "destinations",
        `destination ${farDestination + 1} has no road within 1 km that ${q.mode} may use`,
      );
    }
    return reply({
      origins: q.origins,
      destinations: q.destinations,
      matrix: rows.map((row, originIndex) =>
        row.map((cell, destinationIndex) => ({
          originIndex,
          destinationIndex,
          ...("leg" in cell
            ? { distance: distanceOf(cell.leg.meters, q.units), duration: durationOf(cell.leg.seconds) }
            : { unavailable: UNAVAILABLE[cell.unrouted] }),
        })),
      ),
    });
  },
);
