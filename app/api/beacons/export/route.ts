import { sessionAuthKey } from "@/server/auth/sessions";
import { allBeacons, beaconCsv, beaconFeature } from "@/server/tracking/beacons/transfer";
import { dashboardHandler } from "@/server/http/dashboard";
import { exportQuery, recordsFile } from "@/server/http/download";
import { otherMethods } from "@/server/http/handler";

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

/**
 * GET /api/beacons/export?format=geojson|csv&tag= : every beacon of the session's world (of one
 * tag), as a file to save; what /api/beacons/import reads back.
 */
export const GET = dashboardHandler(
  { permission: "geofences:read", query: exportQuery },
  async ({ session, query }) => {
    const key = sessionAuthKey(session);
    return recordsFile("beacons", query.format, () => allBeacons(key, query.tag), {
      csv: beaconCsv,
      feature: beaconFeature,
    });
  },
);
