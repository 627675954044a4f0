import { deleteGeofence, findGeofenceById, getGeofence } from "@/server/geofences/read";
import { geofenceWriteSchema, serializeGeofence, tagRefSchema } from "@/server/geofences/schema";
import { upsertGeofence } from "@/server/geofences/write";
import { handler, reply, otherMethods } from "@/server/http/handler";
import { validate } from "@/server/http/request";
import { usersInGeofence } from "@/server/users/read";
import { geofenceUsersSchema } from "@/server/users/schema";

export { OPTIONS } from "@/server/http/handler";
export const { POST, PATCH } = otherMethods("GET", "PUT", "DELETE");

/** The first segment is the geofence's tag here (Next names a level's dynamic segment once). */
const refOf = (params: { id: string; externalId: string }) =>
  validate(tagRefSchema, { tag: params.id, externalId: params.externalId });

/**
 * GET /v1/geofences/{tag}/{externalId}, and GET /v1/geofences/{id}/users (the same path shape):
 * "users" after the id of an existing geofence lists its users. Either needs both permissions.
 */
export const GET = handler(
  {
    params: ["id", "externalId"],
    access: "secret",
    permission: ["geofences:read", "users:list"],
    query: geofenceUsersSchema,
  },
  async ({ key, params, query }) => {
    if (params.externalId === "users") {
      const byId = await findGeofenceById(key, params.id);
      if (byId) {
        const { users, hasMore } = await usersInGeofence(byId.seq, query);
        return reply({ users }, hasMore);
      }
    }
    return reply({ geofence: serializeGeofence(await getGeofence(key, refOf(params))) });
  },
);

export const PUT = handler(
  {
    params: ["id", "externalId"],
    access: "secret",
    permission: "geofences:write",
    body: geofenceWriteSchema,
  },
  async ({ key, params, body }) => {
    const { tag, externalId } = refOf(params);
    return reply({ geofence: serializeGeofence(await upsertGeofence(key, tag, externalId, body)) });
  },
);

export const DELETE = handler(
  { params: ["id", "externalId"], access: "secret", permission: "geofences:write" },
  async ({ key, params }) => {
    await deleteGeofence(key, refOf(params));
    return reply({});
  },
);
