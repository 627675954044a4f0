import { deleteGeofence, getGeofence } from "@/server/geofences/read";
import { geofenceWriteSchema, serializeGeofence, tagRefSchema } from "@/server/geofences/schema";
import { upsertGeofence } from "@/server/geofences/write";
import { handler, reply } from "@/server/http/handler";
import { parseBody, validate } from "@/server/http/request";

export { OPTIONS } from "@/server/http/handler";

/** The first segment is the geofence's tag here (Next names a level's dynamic segment once). */
type Params = { id: string; externalId: string };

const refOf = (params: Params) => validate(tagRefSchema, { tag: params.id, externalId: params.externalId });

export const GET = handler<Params>("secret", async ({ key, params }) => {
  const geofence = await getGeofence(key, refOf(params));
  return reply({ geofence: serializeGeofence(geofence) });
});

export const PUT = handler<Params>("secret", async ({ req, key, params }) => {
  const { tag, externalId } = refOf(params);
  const geofence = await upsertGeofence(key, tag, externalId, await parseBody(req, geofenceWriteSchema));
  return reply({ geofence: serializeGeofence(geofence) });
});

export const DELETE = handler<Params>("secret", async ({ key, params }) => {
  await deleteGeofence(key, refOf(params));
  return reply({});
});
