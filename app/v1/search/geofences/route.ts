import { searchQuerySchema, serializeGeofence } from "@/server/geofences/schema";
import { searchGeofences } from "@/server/geofences/search";
import { handler, reply, otherMethods } from "@/server/http/handler";
import { parseQuery } from "@/server/http/request";

export { OPTIONS } from "@/server/http/handler";
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

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
