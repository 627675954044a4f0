import { deleteGeofence, getGeofence } from "@/server/geofences/read";
import { serializeGeofence } from "@/server/geofences/schema";
import { handler, reply, otherMethods } from "@/server/http/handler";

export { OPTIONS } from "@/server/http/handler";
export const { POST, PUT, PATCH } = otherMethods("GET", "DELETE");

type Params = { id: string };

export const GET = handler<Params>("secret", async ({ key, params }) => {
  return reply({ geofence: serializeGeofence(await getGeofence(key, { id: params.id })) });
});

export const DELETE = handler<Params>("secret", async ({ key, params }) => {
  await deleteGeofence(key, { id: params.id });
  return reply({});
});
