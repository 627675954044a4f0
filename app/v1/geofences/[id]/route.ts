import { deleteGeofence, getGeofence } from "@/server/geofences/read";
import { serializeGeofence } from "@/server/geofences/schema";
import { handler, reply, otherMethods } from "@/server/http/handler";

export { OPTIONS } from "@/server/http/handler";
export const { POST, PUT, PATCH } = otherMethods("GET", "DELETE");

export const GET = handler(
  { params: ["id"], access: "secret", permission: "geofences:read" },
  async ({ key, params }) =>
    reply({ geofence: serializeGeofence(await getGeofence(key, { id: params.id })) }),
);

export const DELETE = handler(
  { params: ["id"], access: "secret", permission: "geofences:write" },
  async ({ key, params }) => {
    await deleteGeofence(key, { id: params.id });
    return reply({});
  },
);
