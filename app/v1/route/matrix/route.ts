import { type Position } from "@/server/geo/distance";
import { handler, otherMethods, reply } from "@/server/http/handler";
import { distanceOf, durationOf } from "@/server/routing/format";
import { FLAG_FERRY, FLAG_HIGHWAY, FLAG_TOLL } from "@/server/routing/graph";
import { matrixInWorker } from "@/server/routing/pool";
import { matrixQuery } from "@/server/routing/schema";

export { OPTIONS } from "@/server/http/handler";
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

const AVOID_FLAGS = { tolls: FLAG_TOLL, highways: FLAG_HIGHWAY, ferries: FLAG_FERRY };
const UNROUTED = {
  "no-roads": "no imported roads near this origin and destination",
  "no-route": "no route between this origin and destination on the imported roads",
  transit: "no transit timetables are imported",
};

/**
 * GET /v1/route/matrix (docs/api.md#route-matrix): the fastest routes of one mode from every
 * origin to every destination (at most 625 pairs), computed in a routing worker.
 */
export const GET = handler(
  { access: "search", permission: "context:read", query: matrixQuery },
  async ({ query: q }) => {
    const positions = (cs: typeof q.origins): Position[] => cs.map((c) => [c.longitude, c.latitude]);
    const avoid = (q.avoid ?? []).reduce((mask, a) => mask | AVOID_FLAGS[a], 0);
    const rows =
      q.mode === "transit"
        ? q.origins.map(() => q.destinations.map(() => ({ unrouted: "transit" as const })))
        : await matrixInWorker(positions(q.origins), positions(q.destinations), q.mode, avoid);
    return reply({
      origins: q.origins,
      destinations: q.destinations,
      matrix: rows.map((row, originIndex) =>
        row.map((cell, destinationIndex) => ({
          originIndex,
          destinationIndex,
          ...("leg" in cell
            ? { distance: distanceOf(cell.leg.meters, q.units), duration: durationOf(cell.leg.seconds) }
            : { unavailable: UNROUTED[cell.unrouted] }),
        })),
      ),
    });
  },
);
