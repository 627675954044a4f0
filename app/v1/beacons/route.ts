import { createBeacon, listBeacons } from "@/server/tracking/beacons/api";
import { beaconListSchema, beaconWriteSchema, serializeBeacon } from "@/server/tracking/beacons/schema";
import { handler, reply, otherMethods } from "@/server/http/handler";

export { OPTIONS } from "@/server/http/handler";
export const { PUT, PATCH, DELETE } = otherMethods("GET", "POST");

/** GET /v1/beacons: newest first, by `tag`, paged by createdBefore/createdAfter (docs/beacons.md). */
export const GET = handler(
  { access: "secret", permission: "geofences:read", query: beaconListSchema },
  async ({ key, query }) => {
    const { beacons, hasMore } = await listBeacons(key, query);
    return reply({ beacons: beacons.map(serializeBeacon) }, hasMore);
  },
);

export const POST = handler(
  { access: "secret", permission: "geofences:write", body: beaconWriteSchema },
  async ({ key, body }) => reply({ beacon: serializeBeacon(await createBeacon(key, body)) }),
);
