import { z } from "zod";
import { sessionAuthKey } from "@/server/auth/sessions";
import { TRANSFER, importGeofences, readGeofenceFile } from "@/server/geofences/transfer";
import { dashboardHandler } from "@/server/http/dashboard";
import { otherMethods } from "@/server/http/handler";
import { readLimited } from "@/server/http/request";

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");

const query = z.object({
  format: z.enum(["geojson", "csv"], { error: "must be geojson or csv" }).default("geojson"),
});

/**
 * POST /api/geofences/import?format=geojson|csv with the file as the body. The whole file is
 * checked first: a bad row is a 400 naming it, and nothing is written. Then the answer is a
 * stream of JSON lines: {"progress":{"done","total"}} after each chunk written, and last
 * {"meta":{"code":200},"created","replaced"} (or a meta with code 500 and what was written).
 */
export const POST = dashboardHandler(
  { permission: "geofences:write", query },
  async ({ req, session, query }) => {
    const key = sessionAuthKey(session);
    const writes = readGeofenceFile(await readLimited(req, TRANSFER.maxBytes), query.format);
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        const line = (v: unknown) => controller.enqueue(encoder.encode(`${JSON.stringify(v)}\n`));
        let done = 0;
        try {
          const result = await importGeofences(key, writes, (p) => {
            done = p.done;
            line({ progress: p });
          });
          line({ meta: { code: 200 }, ...result });
        } catch (e) {
          console.error("geofence import stopped", e);
          line({
            meta: {
              code: 500,
              message: `the import stopped after ${done} of ${writes.length} geofences were written`,
            },
          });
        }
        controller.close();
      },
    });
    return new Response(body, { headers: { "content-type": "application/x-ndjson; charset=utf-8" } });
  },
);
