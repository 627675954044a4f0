import simplify from "simplify-js";
import type { Position } from "../geo/distance";
import { pointInRing, ringAreaAndCentroid } from "../geo/polygon";
import { provideIsochroneDrawer } from "../geofences/isochrones";
import { redrawIsochrone } from "../geofences/write";
import { LIMITS } from "../geofences/shape";
import { processOnce } from "../process-once";
import { roadsSignature } from "../routing/engine";
import { profileOf } from "../routing/schema";
import { storage } from "../storage";
import { isochroneInWorker } from "./pool";
import { log } from "../log/logger.mjs";

/**
 * Isochrone geofences drawn by the routing workers (docs/geofences.md#isochrones): the drawing
 * the geofence writes use (the outer ring of the reachable area around the center: a geofence is
 * one ring, as Radar's SDKs read it), and the upkeep that draws them again on the roads of a new
 * import. Started with the server.
 */

/** How often the imports are looked at for new roads. */
const UPKEEP_MS = 5000;
/** Drawings kept for writes that ask the same again (a patch, an import of unchanged rows). */
const CACHE_SIZE = 256;

const state = processOnce("isochrone-geofences", () => ({
  started: false,
  cache: new Map<string, { ring: Position[]; roads: string }>(),
  /** the roads every isochrone geofence was last checked against */
  checked: undefined as string | undefined,
  running: false,
}));

/** The ring of at most LIMITS.polygonPositions positions around `center`. */
function ringAround(polygons: Position[][][], center: Position): Position[] | undefined {
  const outers = polygons.map((p) => p[0]!).filter((r) => r.length >= 4);
  const around =
    outers.find((r) => pointInRing(center[0], center[1], r)) ??
    outers.sort((a, b) => ringAreaAndCentroid(b).area - ringAreaAndCentroid(a).area)[0];
  if (!around) return undefined;
  let ring = around;
  // Rarely needed (the contours are simplified already): coarser until it fits.
  for (let tolerance = 1e-5; ring.length > LIMITS.polygonPositions.max; tolerance *= 2) {
    ring = simplify(
      around.map(([x, y]) => ({ x, y })),
      tolerance,
      true,
    ).map((p): Position => [p.x, p.y]);
  }
  return ring;
}

async function draw(center: Position, mode: string, minutes: number) {
  const key = JSON.stringify([center, mode, minutes, roadsSignature()]);
  const cached = state.cache.get(key);
  if (cached) return cached;
  const profile = profileOf(mode as Parameters<typeof profileOf>[0]);
  const result = await isochroneInWorker(center, profile, [minutes], 0);
  if ("unrouted" in result) {
    return {
      param: "coordinates",
      message:
        result.unrouted === "origin-far"
          ? `an isochrone's center needs a road within 1 km that ${mode} may use`
          : "an isochrone is drawn from the imported roads, and none are imported around its center (npm run import)",
    };
  }
  const ring = ringAround(result.contours[0]?.polygons ?? [], center);
  if (!ring) return { param: "coordinates", message: `nothing is reachable from the center by ${mode}` };
  const drawn = { ring, roads: result.roads };
  if (state.cache.size >= CACHE_SIZE) state.cache.delete(state.cache.keys().next().value!);
  state.cache.set(key, drawn);
  return drawn;
}

/**
 * Draws again every isochrone geofence drawn on other roads than the imports hold now; each
 * one that can no longer be drawn (its roads were removed) keeps its polygon and says so in the
 * log. Looks at most once per UPKEEP_MS, and only when the roads changed since its last look.
 */
async function upkeep(): Promise<void> {
  const roads = roadsSignature();
  if (state.running || roads === state.checked) return;
  state.running = true;
  try {
    let after = 0;
    for (;;) {
      const page = await storage().geofences.isochrones(after, 100);
      if (!page.length) break;
      after = page[page.length - 1]!.seq;
      for (const g of page) {
        const making = g.isochrone as { roads?: string } | null;
        if (making?.roads === roads) continue;
        try {
          await redrawIsochrone(g);
        } catch (e) {
          log.error({ geofenceId: g.id, reason: (e as Error).message }, "isochrone geofence not drawn again");
        }
      }
    }
    state.checked = roads;
  } finally {
    state.running = false;
  }
}

/** Provides the drawing to geofence writes and starts the upkeep (once per process). */
export function startIsochroneGeofences(): void {
  provideIsochroneDrawer(draw);
  if (state.started) return;
  state.started = true;
  const tick = () =>
    upkeep()
      .catch((err: unknown) => log.error({ err }, "isochrone geofences failed"))
      .finally(() => setTimeout(tick, UPKEEP_MS).unref());
  setTimeout(tick, 1000).unref();
}
