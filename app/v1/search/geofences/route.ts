import { searchQuerySchema, serializeGeofence } from "@/server/geofences/schema";
import { searchGeofences } from "@/server/geofences/search";
import { handler, reply, otherMethods } from "@/server/http/handler";

export { OPTIONS } from "@/server/http/handler";
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

export const GET = handler(
  { access: "search", permission: "geofences:read", query: searchQuerySchema },
  async ({ key, query }) => {
    const hits = await searchGeofences(key, query);
    return reply({
      geofences: hits.map(({ geofence, distance }) => ({
        ...serializeGeofence(geofence, {
          includeGeometry: query.includeGeometry,
          withUserIds: key.kind !== "publishable",
        }),
        distance,
      })),
    });
  },
);
