import type { DeviceLogStore } from "../../storage/logs";
import { inTransaction, rows } from "./sql";

/** The lines in the order sent: sequence numbers follow it. */
const INSERT = `INSERT INTO "DeviceLog" ("live", "deviceId", "installId", "level", "message", "type", "createdAt", "receivedAt")
  SELECT $1::boolean, $2::text, $3::text, l."level", l."message", l."type", l."createdAt", $4::timestamptz
  FROM unnest($5::text[], $6::text[], $7::text[], $8::timestamptz[]) WITH ORDINALITY AS l("level", "message", "type", "createdAt", n)
  ORDER BY l.n`;
/** The device's lines from its `keep`-th newest (OFFSET) down. */
const DROP_OLDEST = `DELETE FROM "DeviceLog" WHERE "live" = $1 AND "deviceId" = $2 AND "seq" <= (
  SELECT "seq" FROM "DeviceLog" WHERE "live" = $1 AND "deviceId" = $2 ORDER BY "seq" DESC LIMIT 1 OFFSET $3)`;
const DROP_BEFORE = `DELETE FROM "DeviceLog" WHERE "receivedAt" < $1`;
const LIST = `SELECT "level", "message", "type", "createdAt", "receivedAt" FROM "DeviceLog"
  WHERE "live" = $1 AND "deviceId" = $2 ORDER BY "seq" DESC LIMIT $3`;

/** SDK log lines. An upload is one transaction whose statements go with BEGIN, in one round trip. */
export const postgresLogs: DeviceLogStore = {
  append: ({ live, deviceId, installId }, lines, receivedAt, { keep, before }) =>
    inTransaction(async (client, commitNow) => {
      const sent = Promise.all([
        rows(
          INSERT,
          [
            live,
            deviceId,
            installId,
            receivedAt,
            lines.map((l) => l.level),
            lines.map((l) => l.message),
            lines.map((l) => l.type),
            lines.map((l) => l.createdAt.toISOString()),
          ],
          client,
        ),
        rows(DROP_OLDEST, [live, deviceId, keep], client),
        rows(DROP_BEFORE, [before], client),
      ]);
      commitNow();
      await sent;
    }),
  list: (live, deviceId, take) => rows(LIST, [live, deviceId, take]),
};
