import { deleteBeacon, getBeacon, upsertBeacon } from "@/server/tracking/beacons/api";
import { beaconTagRefSchema, beaconWriteSchema, serializeBeacon } from "@/server/tracking/beacons/schema";
import { handler, reply, otherMethods } from "@/server/http/handler";
import { validate } from "@/server/http/request";

export { OPTIONS } from "@/server/http/handler";
export const { POST, PATCH } = otherMethods("GET", "PUT", "DELETE");

/** The first segment is the beacon's tag here (Next names a level's dynamic segment once). */
const refOf = (params: { id: string; externalId: string }) =>
  validate(beaconTagRefSchema, { tag: params.id, externalId: params.externalId });

export const GET = handler(
  { params: ["id", "externalId"], access: "secret", permission: "geofences:read" },
  async ({ key, params }) => reply({ beacon: serializeBeacon(await getBeacon(key, refOf(params))) }),
);

/** PUT /v1/beacons/{tag}/{externalId}: replaces the beacon with this tag and externalId, or makes it. */
export const PUT = handler(
  { params: ["id", "externalId"], access: "secret", permission: "geofences:write", body: beaconWriteSchema },
  async ({ key, params, body }) => {
    const { tag, externalId } = refOf(params);
    return reply({ beacon: serializeBeacon(await upsertBeacon(key, tag, externalId, body)) });
  },
);

export const DELETE = handler(
  { params: ["id", "externalId"], access: "secret", permission: "geofences:write" },
  async ({ key, params }) => {
    await deleteBeacon(key, refOf(params));
    return reply({});
  },
);
