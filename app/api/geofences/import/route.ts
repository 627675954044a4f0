import { z } from "zod";
import { sessionAuthKey } from "@/server/auth/sessions";
import { applyImport, planImport, previewOf } from "@/server/geofences/import";
import { TRANSFER, readGeofenceFile } from "@/server/geofences/transfer";
import { ApiError } from "@/server/errors";
import { booleanish } from "@/server/http/fields";
import { dashboardHandler, ok } from "@/server/http/dashboard";
import { otherMethods } from "@/server/http/handler";
import { readLimited } from "@/server/http/request";
import { log } from "@/server/log/logger.mjs";

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");

const query = z.object({
  format: z.enum(["geojson", "csv"], { error: "must be geojson or csv" }).default("geojson"),
  dryRun: booleanish.default(false),
});

/**
 * POST /api/geofences/import?format=geojson|csv[&dryRun=true] with the file as the body. The whole
 * file is checked first: a bad row is a 400 naming it, and nothing is written. With dryRun, the
 * answer is what the import would do ({preview: {total, created, replaced, unchanged, changes}}),
 * and nothing is written. Otherwise it is a stream of JSON lines: {"progress":{"done","total"}}
 * after each chunk written, and last {"meta":{"code":200},"created","replaced","unchanged"} (or a
 * meta with an error code and what was written).
 */
export const POST = dashboardHandler(
  { permission: "geofences:write", query },
  async ({ req, session, query }) => {
    const key = sessionAuthKey(session);
    const plan = await planImport(
      key,
      readGeofenceFile(await readLimited(req, TRANSFER.maxBytes), query.format),
    );
    if (query.dryRun) return ok({ preview: previewOf(plan) });
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        const line = (v: unknown) => controller.enqueue(encoder.encode(`${JSON.stringify(v)}\n`));
        let done = 0;
        try {
          const result = await applyImport(key, plan, (p) => {
            done = p.done;
            line({ progress: p });
          });
          line({ meta: { code: 200 }, ...result });
        } catch (e) {
          const total = plan.creates.length + plan.updates.length;
          // A refusal (a write made meanwhile by someone else) says why; anything else is logged.
          if (!(e instanceof ApiError)) log.error({ err: e }, "geofence import stopped");
          line({
            meta: {
              code: e instanceof ApiError ? e.status : 500,
              message: `the import stopped after ${done} of ${total} geofences were written${e instanceof ApiError ? `: ${e.message}` : ""}`,
            },
          });
        }
        controller.close();
      },
    });
    return new Response(body, { headers: { "content-type": "application/x-ndjson; charset=utf-8" } });
  },
);
