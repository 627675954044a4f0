import { listGeofences } from "@/server/geofences/read";
import { geofenceWriteSchema, listQuerySchema, serializeGeofence } from "@/server/geofences/schema";
import { createGeofence } from "@/server/geofences/write";
import { handler, reply, otherMethods } from "@/server/http/handler";
import { parseBody, parseQuery } from "@/server/http/request";

export { OPTIONS } from "@/server/http/handler";
export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");

export const GET = handler("secret", async ({ req, key }) => {
  const { geofences, hasMore } = await listGeofences(key, parseQuery(req, listQuerySchema));
  return reply({ geofences: geofences.map((g) => serializeGeofence(g)) }, hasMore);
});

export const POST = handler("secret", async ({ req, key }) => {
  const geofence = await createGeofence(key, await parseBody(req, geofenceWriteSchema));
  return reply({ geofence: serializeGeofence(geofence) });
});
