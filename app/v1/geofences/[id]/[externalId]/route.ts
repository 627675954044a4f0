import { deleteGeofence, getGeofence } from "@/server/geofences/read";
import { geofenceWriteSchema, serializeGeofence } from "@/server/geofences/schema";
import { upsertGeofence } from "@/server/geofences/write";
import { handler, reply } from "@/server/http/handler";
import { parseBody } from "@/server/http/request";

export { OPTIONS } from "@/server/http/handler";

/** The first segment is the geofence's tag here (Next names a level's dynamic segment once). */
type Params = { id: string; externalId: string };

export const GET = handler<Params>("secret", async ({ key, params }) => {
  const geofence = await getGeofence(key, { tag: params.id, externalId: params.externalId });
  return reply({ geofence: serializeGeofence(geofence) });
});

export const PUT = handler<Params>("secret", async ({ req, key, params }) => {
  const input = await parseBody(req, geofenceWriteSchema);
  const geofence = await upsertGeofence(key, params.id, params.externalId, input);
  return reply({ geofence: serializeGeofence(geofence) });
});

export const DELETE = handler<Params>("secret", async ({ key, params }) => {
  await deleteGeofence(key, { tag: params.id, externalId: params.externalId });
  return reply({});
});
