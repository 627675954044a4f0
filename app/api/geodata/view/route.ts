import { z } from "zod";
import { mapBox } from "@/server/geodata/map-box";
import { placesInView } from "@/server/imports/view";
import { dashboardHandler, ok } from "@/server/http/dashboard";
import { otherMethods } from "@/server/http/handler";

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

/** GET /api/geodata/view?bbox= : imported places and boundaries in the map's view (dashboard map). */
export const GET = dashboardHandler(
  { permission: "signed-in", query: z.object({ bbox: mapBox }) },
  async ({ query }) => ok(placesInView(query.bbox)),
);
