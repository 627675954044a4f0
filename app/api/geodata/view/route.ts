import { z } from "zod";
import { placesInView } from "@/server/geodata/view";
import { dashboardHandler, ok } from "@/server/http/dashboard";
import { otherMethods } from "@/server/http/handler";

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

const bbox = z.string({ error: "is required: minLng,minLat,maxLng,maxLat" }).transform((text, ctx) => {
  const n = text.split(",").map((v) => Number(v.trim()));
  const [minLng, minLat, maxLng, maxLat] = n;
  if (
    n.length !== 4 ||
    n.some((v) => !Number.isFinite(v)) ||
    minLat! < -90 ||
    maxLat! > 90 ||
    minLat! > maxLat! ||
    minLng! > maxLng!
  ) {
    ctx.addIssue({ code: "custom", message: "must be minLng,minLat,maxLng,maxLat with min ≤ max" });
    return z.NEVER;
  }
  return { minLng: minLng!, minLat: minLat!, maxLng: maxLng!, maxLat: maxLat! };
});

/** GET /api/geodata/view?bbox= : imported places and boundaries in the map's view (dashboard map). */
export const GET = dashboardHandler(
  { permission: "signed-in", query: z.object({ bbox }) },
  async ({ query }) => ok(placesInView(query.bbox)),
);
