import { z } from "zod";
import { mapBox } from "@/server/geodata/map-box";
import { streetsInView } from "@/server/imports/view";
import { dashboardHandler, ok } from "@/server/http/dashboard";
import { otherMethods } from "@/server/http/handler";

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

/**
 * GET /api/geodata/streets?bbox=&roads=all|main : imported streets in the map's view (the offline
 * basemap); `main`, for a view zoomed out, only the main roads.
 */
export const GET = dashboardHandler(
  {
    permission: "signed-in",
    query: z.object({
      bbox: mapBox,
      roads: z.enum(["all", "main"], { error: "must be all or main" }).default("all"),
    }),
  },
  async ({ query }) => ok(streetsInView(query.bbox, query.roads === "main")),
);
