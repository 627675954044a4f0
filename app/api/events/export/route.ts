import { stringify } from "csv-stringify/sync";
import type { LocationEvent } from "@/lib/types";
import { sessionAuthKey } from "@/server/auth/sessions";
import { listEvents } from "@/server/events/events";
import { listEventsSchema } from "@/server/events/schema";
import { dashboardHandler } from "@/server/http/dashboard";
import { download, stamped } from "@/server/http/download";
import { otherMethods } from "@/server/http/handler";
import { serializeEvent } from "@/server/tracking/serialize";
import { safeCell } from "@/server/text/csv-cells";

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

const cells = (row: unknown[]) => row.map(safeCell);

const COLUMNS = [
  "_id",
  "type",
  "createdAt",
  "actualCreatedAt",
  "user._id",
  "user.userId",
  "user.deviceId",
  "geofence._id",
  "geofence.tag",
  "geofence.externalId",
  "geofence.description",
  "place.name",
  "region.type",
  "region.code",
  "region.name",
  "latitude",
  "longitude",
  "locationAccuracy",
  "confidence",
  "verification",
  "duration",
  "metadata",
];

/**
 * GET /api/events/export: the events GET /v1/events would list with the same filters
 * (verification, types, confidence, userId, geofenceId, createdAfter, createdBefore), all of
 * them, newest first, as CSV (`limit` is the page read at a time).
 */
export const GET = dashboardHandler(
  { permission: "events:read", query: listEventsSchema },
  async ({ session, query }) => {
    const key = sessionAuthKey(session);
    async function* csv() {
      yield stringify([], { header: true, columns: COLUMNS });
      let before = query.createdBefore;
      for (;;) {
        const { events, hasMore } = await listEvents(key, { ...query, limit: 1000, createdBefore: before });
        yield stringify(
          events.map((row) => {
            // The wire form, as API clients and the dashboard read it; text a spreadsheet would
            // run as a formula is written as text.
            const e = serializeEvent(row) as unknown as LocationEvent;
            return cells([
              e._id,
              e.type,
              e.createdAt,
              e.actualCreatedAt,
              e.user._id,
              e.user.userId ?? "",
              e.user.deviceId ?? "",
              e.geofence?._id ?? "",
              e.geofence?.tag ?? "",
              e.geofence?.externalId ?? "",
              e.geofence?.description ?? "",
              e.place?.name ?? "",
              e.region?.type ?? "",
              e.region?.code ?? "",
              e.region?.name ?? "",
              e.location.coordinates[1],
              e.location.coordinates[0],
              e.locationAccuracy,
              e.confidence,
              e.verification,
              e.duration ?? "",
              e.metadata ? JSON.stringify(e.metadata) : "",
            ]);
          }),
        );
        if (!hasMore || events.length === 0) return;
        before = events.at(-1)!.createdAt;
      }
    }
    return download(stamped("events", "csv"), "text/csv", csv());
  },
);
