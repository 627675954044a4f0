import { sessionAuthKey } from "@/server/auth/sessions";
import { GEOFENCE_SORTS, geofenceTable } from "@/server/geofences/read";
import { serializeGeofence } from "@/server/geofences/schema";
import { dashboardHandler, ok } from "@/server/http/dashboard";
import { otherMethods } from "@/server/http/handler";
import { tableQuery } from "@/server/http/table";

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

/** GET /api/geofences/table?page&size&sort&dir&search : the dashboard's geofences table. */
export const GET = dashboardHandler(
  { permission: "geofences:read", query: tableQuery(GEOFENCE_SORTS, "createdAt", "desc") },
  async ({ session, query }) => {
    const { rows, total } = await geofenceTable(sessionAuthKey(session), query);
    return ok({ geofences: rows.map((g) => serializeGeofence(g)), total });
  },
);
