import { deleteGeofence, getGeofence } from "@/server/geofences/read";
import { geofencePatchSchema, serializeGeofence } from "@/server/geofences/schema";
import { updateGeofence } from "@/server/geofences/write";
import { handler, reply, otherMethods } from "@/server/http/handler";
import { ifMatchDate } from "@/server/http/preconditions";

export { OPTIONS } from "@/server/http/handler";
export const { POST, PUT } = otherMethods("GET", "PATCH", "DELETE");

export const GET = handler(
  { params: ["id"], access: "secret", permission: "geofences:read" },
  async ({ key, params }) =>
    reply({ geofence: serializeGeofence(await getGeofence(key, { id: params.id })) }),
);

/**
 * PATCH /v1/geofences/{id}: changes the fields sent and keeps the others (what the dashboard's
 * edit form uses). `If-Match: <updatedAt>` refuses the change if someone changed it since.
 */
export const PATCH = handler(
  { params: ["id"], access: "secret", permission: "geofences:write", body: geofencePatchSchema },
  async ({ req, key, params, body }) => {
    const geofence = await updateGeofence(key, params.id, body, ifMatchDate(req));
    return reply({ geofence: serializeGeofence(geofence) });
  },
);

export const DELETE = handler(
  { params: ["id"], access: "secret", permission: "geofences:write" },
  async ({ key, params }) => {
    await deleteGeofence(key, { id: params.id });
    return reply({});
  },
);
