import { deleteGeofence, findGeofenceById, getGeofence } from "@/server/geofences/read";
import { geofenceWriteSchema, serializeGeofence, tagRefSchema } from "@/server/geofences/schema";
import { upsertGeofence } from "@/server/geofences/write";
import { handler, reply, otherMethods } from "@/server/http/handler";
import { parseBody, parseQuery, validate } from "@/server/http/request";
import { usersInGeofence } from "@/server/users/read";
import { geofenceUsersSchema } from "@/server/users/schema";

export { OPTIONS } from "@/server/http/handler";
export const { POST, PATCH } = otherMethods("GET", "PUT", "DELETE");

/** The first segment is the geofence's tag here (Next names a level's dynamic segment once). */
type Params = { id: string; externalId: string };

const refOf = (params: Params) => validate(tagRefSchema, { tag: params.id, externalId: params.externalId });

/**
 * GET /v1/geofences/{tag}/{externalId}, and GET /v1/geofences/{id}/users (the same path shape):
 * "users" after the id of an existing geofence lists its users.
 */
export const GET = handler<Params>("secret", async ({ req, key, params }) => {
  if (params.externalId === "users") {
    const byId = await findGeofenceById(key, params.id);
    if (byId) {
      const { users, hasMore } = await usersInGeofence(byId.seq, parseQuery(req, geofenceUsersSchema));
      return reply({ users }, hasMore);
    }
  }
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
