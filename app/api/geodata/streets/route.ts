import { z } from "zod";
import { mapBox } from "@/server/geodata/map-box";
import { streetsInView } from "@/server/geodata/view";
import { dashboardHandler, ok } from "@/server/http/dashboard";
import { otherMethods } from "@/server/http/handler";

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

/** GET /api/geodata/streets?bbox= : imported streets in the map's view (the offline basemap). */
export const GET = dashboardHandler(
  { permission: "signed-in", query: z.object({ bbox: mapBox }) },
  async ({ query }) => ok(streetsInView(query.bbox)),
);
