import type { Position } from "../../geo/distance";
import type { RouteResult } from "../../routing/engine";
import type { Mode } from "../../routing/profiles";
import { type EtaHint, round1, straightLineEta } from "./model";
import { log } from "../../log/logger.mjs";

/**
 * The ETA of a trip by road (docs/trips.md#eta): the fastest route of the trip's mode from the
 * user's fix to the destination, computed by a routing worker before the tracking transaction
 * (never on the tracking thread); where no road joins them, the straight line at the mode's
 * pace, which says so (`source: "straight_line"`). Never an error: a trip always has an ETA.
 */

type Router = (origin: Position, destination: Position, mode: Mode) => Promise<RouteResult[]>;

const shared = globalThis as unknown as { tripRouter?: Router };

/**
 * Where routes come from on this thread: the routing workers, reached through the server's thread
 * (server/tracking/thread.ts). None set: the straight line.
 */
export function routeTripsWith(router: Router): void {
  shared.tripRouter = router;
}

/** The ETA from `from` to `to` for `mode`: by road when a route is found, else the straight line. */
export async function etaBetween(from: Position, to: Position, mode: Mode): Promise<EtaHint> {
  let found: RouteResult | undefined;
  try {
    if (shared.tripRouter) found = (await shared.tripRouter(from, to, mode))[0];
  } catch (e) {
    // A routing worker that failed (restarting) costs the road answer of one update, not the update.
    log.error({ err: e }, "trip ETA: routing failed");
  }
  if (found && "leg" in found) {
    return {
      to,
      mode,
      distance: Math.round(found.leg.meters),
      duration: round1(found.leg.seconds / 60),
      source: "road",
    };
  }
  return { to, mode, ...straightLineEta(from, to, mode) };
}
