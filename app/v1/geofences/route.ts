import { listGeofences } from "@/server/geofences/read";
import { geofenceWriteSchema, listQuerySchema, serializeGeofence } from "@/server/geofences/schema";
import { createGeofence } from "@/server/geofences/write";
import { handler, reply, otherMethods } from "@/server/http/handler";

export { OPTIONS } from "@/server/http/handler";
export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");

export const GET = handler(
  { access: "secret", permission: "geofences:read", query: listQuerySchema },
  async ({ key, query }) => {
    const { geofences, hasMore } = await listGeofences(key, query);
    return reply({ geofences: geofences.map((g) => serializeGeofence(g)) }, hasMore);
  },
);

export const POST = handler(
  { access: "secret", permission: "geofences:write", body: geofenceWriteSchema },
  async ({ key, body }) => reply({ geofence: serializeGeofence(await createGeofence(key, body)) }),
);
