import { z } from "zod";
import { sessionAuthKey } from "@/server/auth/sessions";
import { BEACON_TRANSFER, importBeacons, readBeaconFile } from "@/server/tracking/beacons/transfer";
import { dashboardHandler, ok } from "@/server/http/dashboard";
import { otherMethods } from "@/server/http/handler";
import { readLimited } from "@/server/http/request";

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");

const query = z.object({
  format: z.enum(["geojson", "csv"], { error: "must be geojson or csv" }).default("geojson"),
});

/**
 * POST /api/beacons/import?format=geojson|csv with the file as the body: every row is checked
 * first (a bad one is a 400 naming it, and nothing is written), then written: {created, replaced}.
 */
export const POST = dashboardHandler(
  { permission: "geofences:write", query },
  async ({ req, session, query }) => {
    const key = sessionAuthKey(session);
    const rows = readBeaconFile(await readLimited(req, BEACON_TRANSFER.maxBytes), query.format);
    return ok(await importBeacons(key, rows));
  },
);
