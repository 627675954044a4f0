import { z } from "zod";
import { sessionAuthKey } from "@/server/auth/sessions";
import { allBeacons, beaconCsv, beaconFeature } from "@/server/tracking/beacons/transfer";
import { dashboardHandler } from "@/server/http/dashboard";
import { download, stamped } from "@/server/http/download";
import { optionalString } from "@/server/http/fields";
import { otherMethods } from "@/server/http/handler";

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

const query = z.object({
  format: z.enum(["geojson", "csv"], { error: "must be geojson or csv" }).default("geojson"),
  tag: optionalString(256),
});

/**
 * GET /api/beacons/export?format=geojson|csv&tag= : every beacon of the session's world (of one
 * tag), as a file to save; what /api/beacons/import reads back.
 */
export const GET = dashboardHandler({ permission: "geofences:read", query }, async ({ session, query }) => {
  const key = sessionAuthKey(session);
  if (query.format === "csv") {
    async function* csv() {
      let first = true;
      for await (const page of allBeacons(key, query.tag)) {
        yield beaconCsv(page, first);
        first = false;
      }
      if (first) yield beaconCsv([], true);
    }
    return download(stamped("beacons", "csv"), "text/csv", csv());
  }
  async function* geojson() {
    yield '{"type":"FeatureCollection","features":[';
    let first = true;
    for await (const page of allBeacons(key, query.tag)) {
      for (const b of page) {
        yield (first ? "\n" : ",\n") + JSON.stringify(beaconFeature(b));
        first = false;
      }
    }
    yield "\n]}\n";
  }
  return download(stamped("beacons", "geojson"), "application/geo+json", geojson());
});
