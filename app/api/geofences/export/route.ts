import { sessionAuthKey } from "@/server/auth/sessions";
import { allGeofences, geofenceCsv, geofenceFeature } from "@/server/geofences/transfer";
import { dashboardHandler } from "@/server/http/dashboard";
import { exportQuery, recordsFile } from "@/server/http/download";
import { otherMethods } from "@/server/http/handler";

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

/**
 * GET /api/geofences/export?format=geojson|csv&tag= : every geofence of the session's world (of
 * one tag), as a file to save; what /api/geofences/import reads back.
 */
export const GET = dashboardHandler(
  { permission: "geofences:read", query: exportQuery },
  async ({ session, query }) => {
    const key = sessionAuthKey(session);
    return recordsFile("geofences", query.format, () => allGeofences(key, query.tag), {
      csv: geofenceCsv,
      feature: geofenceFeature,
    });
  },
);
