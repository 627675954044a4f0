import { z } from "zod";
import { handler, otherMethods, replyWithMeta } from "@/server/http/handler";
import { coordinatePair, intIn } from "@/server/http/fields";
import { searchBeacons } from "@/server/tracking/beacons/api";
import { serializeBeacon } from "@/server/tracking/beacons/schema";

export { OPTIONS } from "@/server/http/handler";
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

const schema = z.object({
  near: coordinatePair,
  radius: intIn(100, 10_000, 1000),
  limit: intIn(1, 100, 100),
});

/**
 * GET /v1/search/beacons: Radar's SDKs ask it (searchBeacons, and before ranging beacons): the
 * enabled beacons near the device, nearest first, and in `meta.settings.beacons.uuids` the UUIDs
 * to range (docs/beacons.md). A beacon is not a user's state: a publishable key may read them.
 */
export const GET = handler(
  { access: "publishable", permission: null, query: schema },
  async ({ key, query }) => {
    const { beacons, uuids } = await searchBeacons(key, query.near, query.radius ?? 1000, query.limit ?? 100);
    return replyWithMeta({ beacons: beacons.map(serializeBeacon) }, { settings: { beacons: { uuids } } });
  },
);
