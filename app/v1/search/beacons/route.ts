import { z } from "zod";
import { handler, otherMethods, reply } from "@/server/http/handler";
import { coordinatePair, intIn } from "@/server/http/fields";

export { OPTIONS } from "@/server/http/handler";
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

const schema = z.object({
  near: coordinatePair,
  radius: intIn(100, 10_000, 1000),
  limit: intIn(1, 100, 100),
});

/**
 * GET /v1/search/beacons: Radar's SDKs ask it (searchBeacons, and before ranging beacons). This
 * service keeps no beacons (docs/api.md), so the answer is always an empty list, in the shape the
 * SDKs parse; the request is still checked as Radar's is.
 */
export const GET = handler({ access: "publishable", permission: null, query: schema }, async () =>
  reply({ beacons: [] }),
);
