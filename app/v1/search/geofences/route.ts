import { searchQuerySchema } from "@/server/geofences/schema";
import { searchGeofences, writtenOnce } from "@/server/geofences/search";
import { handler, otherMethods, replyEncoded } from "@/server/http/handler";

export { OPTIONS } from "@/server/http/handler";
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

/** Each geofence as written once per version (server/geofences/search.ts), its distance added. */
export const GET = handler(
  { access: "search", permission: "geofences:read", query: searchQuerySchema },
  async ({ key, query }) => {
    const hits = await searchGeofences(key, query);
    const form = { includeGeometry: query.includeGeometry, withUserIds: key.kind !== "publishable" };
    const geofences = hits.map(
      ({ geofence, distance }) =>
        `${writtenOnce(geofence, form).slice(0, -1)},"distance":${JSON.stringify(distance)}}`,
    );
    return replyEncoded(`{"geofences":[${geofences.join(",")}]}`);
  },
);
