import { searchQuerySchema, serializeGeofence } from "@/server/geofences/schema";
import { searchGeofences } from "@/server/geofences/search";
import { handler, reply } from "@/server/http/handler";
import { parseQuery } from "@/server/http/request";

export { OPTIONS } from "@/server/http/handler";

export const GET = handler("search", async ({ req, key }) => {
  const q = parseQuery(req, searchQuerySchema);
  const hits = searchGeofences(key, q);
  return reply({
    geofences: hits.map(({ geofence, distance }) => ({
      ...serializeGeofence(geofence, { includeGeometry: q.includeGeometry }),
      distance,
    })),
  });
});
