import type { Position } from "../geo/distance";
import { ApiError } from "../errors";
import { processOnce } from "../process-once";
import type { GeofenceWrite, ShapedWrite } from "./schema";
import { isochroneShape } from "./shape";

/**
 * Isochrone geofences (docs/geofences.md#isochrones): a write of `type: "isochrone"` names a
 * center, minutes and a mode; its polygon is drawn from the imported roads by the routing
 * engine, which lives above this layer and provides the drawing at start
 * (server/planner/isochrone-geofences.ts). Everything else treats it as a polygon.
 */

/** The ring of the area reachable from `center`, and which roads it was drawn on; or why not. */
export type IsochroneDrawer = (
  center: Position,
  mode: string,
  minutes: number,
) => Promise<{ ring: Position[]; roads: string } | { param: string; message: string }>;

const slot = processOnce("isochrone-drawer", () => ({ draw: undefined as IsochroneDrawer | undefined }));

/** Set once at start by the routing side. */
export function provideIsochroneDrawer(draw: IsochroneDrawer): void {
  slot.draw = draw;
}

/** The write with its shape: as validated, or for an isochrone drawn from the roads now. */
export async function shaped(input: GeofenceWrite): Promise<ShapedWrite> {
  if (!input.isochrone) return { ...input, shape: input.shape!, making: null };
  const draw = slot.draw;
  if (!draw) throw new Error("isochrone geofences: nothing draws them in this process (routing not started)");
  const { center, minutes, mode } = input.isochrone;
  const drawn = await draw(center, mode, minutes);
  if ("message" in drawn)
    throw new ApiError("invalid_input", `${drawn.param}: ${drawn.message}`, drawn.param);
  const result = isochroneShape(drawn.ring, center);
  if (!result.ok) {
    throw new ApiError(
      "invalid_input",
      `radius: the area reachable in ${minutes} min by ${mode} ${result.message.replace(/^the polygon /, "")}; ask fewer minutes`,
      "radius",
    );
  }
  return { ...input, shape: result.shape, making: { mode, minutes, roads: drawn.roads } };
}
