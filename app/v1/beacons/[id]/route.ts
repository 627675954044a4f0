import { deleteBeacon, getBeacon, updateBeacon } from "@/server/tracking/beacons/api";
import { beaconPatchSchema, serializeBeacon } from "@/server/tracking/beacons/schema";
import { handler, reply, otherMethods } from "@/server/http/handler";

export { OPTIONS } from "@/server/http/handler";
export const { POST, PATCH } = otherMethods("GET", "PUT", "DELETE");

export const GET = handler(
  { params: ["id"], access: "secret", permission: "geofences:read" },
  async ({ key, params }) => reply({ beacon: serializeBeacon(await getBeacon(key, { id: params.id })) }),
);

/** PUT /v1/beacons/{id}: changes the fields sent and keeps the others. */
export const PUT = handler(
  { params: ["id"], access: "secret", permission: "geofences:write", body: beaconPatchSchema },
  async ({ key, params, body }) =>
    reply({ beacon: serializeBeacon(await updateBeacon(key, { id: params.id }, body)) }),
);

export const DELETE = handler(
  { params: ["id"], access: "secret", permission: "geofences:write" },
  async ({ key, params }) => {
    await deleteBeacon(key, { id: params.id });
    return reply({});
  },
);
