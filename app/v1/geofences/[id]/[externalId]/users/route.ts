import { getGeofence } from "@/server/geofences/read";
import { tagRefSchema } from "@/server/geofences/schema";
import { handler, reply, otherMethods } from "@/server/http/handler";
import { validate } from "@/server/http/request";
import { usersInGeofence } from "@/server/users/read";
import { geofenceUsersSchema } from "@/server/users/schema";

export { OPTIONS } from "@/server/http/handler";
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

/** GET /v1/geofences/{tag}/{externalId}/users: the users inside that geofence now. */
export const GET = handler(
  {
    params: ["id", "externalId"],
    access: "secret",
    permission: ["geofences:read", "users:list"],
    query: geofenceUsersSchema,
  },
  async ({ key, params, query }) => {
    const ref = validate(tagRefSchema, { tag: params.id, externalId: params.externalId });
    const geofence = await getGeofence(key, ref);
    const { users, hasMore } = await usersInGeofence(geofence.seq, query);
    return reply({ users }, hasMore);
  },
);
