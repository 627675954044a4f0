import { z } from "zod";
import { sessionAuthKey } from "@/server/auth/sessions";
import { allGeofences, geofenceCsv, geofenceFeature } from "@/server/geofences/transfer";
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
 * GET /api/geofences/export?format=geojson|csv&tag= : every geofence of the session's world (of
 * one tag), as a file to save; what /api/geofences/import reads back.
 */
export const GET = dashboardHandler({ permission: "geofences:read", query }, async ({ session, query }) => {
  const key = sessionAuthKey(session);
  if (query.format === "csv") {
    async function* csv() {
      let first = true;
      for await (const page of allGeofences(key, query.tag)) {
        yield geofenceCsv(page, first);
        first = false;
      }
      if (first) yield geofenceCsv([], true);
    }
    return download(stamped("geofences", "csv"), "text/csv", csv());
  }
  async function* geojson() {
    yield '{"type":"FeatureCollection","features":[';
    let first = true;
    for await (const page of allGeofences(key, query.tag)) {
      for (const g of page) {
        yield (first ? "\n" : ",\n") + JSON.stringify(geofenceFeature(g));
        first = false;
      }
    }
    yield "\n]}\n";
  }
  return download(stamped("geofences", "geojson"), "application/geo+json", geojson());
});
