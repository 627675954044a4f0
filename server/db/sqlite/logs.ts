import type { DeviceLogLine, DeviceLogStore } from "../../storage/logs";
import { withWriteLock } from "../write-lock";
import { prepared, rowDate, sqlDate, transaction } from "./connection";

const INSERT = `INSERT INTO "DeviceLog" ("live", "deviceId", "installId", "level", "message", "type", "createdAt", "receivedAt")
  VALUES (?, ?, ?, ?, ?, ?, ?, ?)`;
/** The device's lines from its `keep`-th newest (OFFSET) down. */
const DROP_OLDEST = `DELETE FROM "DeviceLog" WHERE "live" = ? AND "deviceId" = ? AND "seq" <= (
  SELECT "seq" FROM "DeviceLog" WHERE "live" = ? AND "deviceId" = ? ORDER BY "seq" DESC LIMIT 1 OFFSET ?)`;
const DROP_BEFORE = `DELETE FROM "DeviceLog" WHERE "receivedAt" < ?`;
const LIST = `SELECT "level", "message", "type", "createdAt", "receivedAt" FROM "DeviceLog"
  WHERE "live" = ? AND "deviceId" = ? ORDER BY "seq" DESC LIMIT ?`;

/**
 * SDK log lines. An upload is one synchronous transaction under the write lock: it holds the lock
 * (the tracking thread's too) for the statements alone, never across turns of the event loop.
 */
export const sqliteLogs: DeviceLogStore = {
  append: ({ live, deviceId, installId }, lines, receivedAt, { keep, before }) =>
    withWriteLock(() =>
      transaction(() => {
        const insert = prepared(INSERT);
        const received = sqlDate(receivedAt);
        for (const l of lines) {
          insert.run(
            live ? 1 : 0,
            deviceId,
            installId,
            l.level,
            l.message,
            l.type,
            sqlDate(l.createdAt),
            received,
          );
        }
        prepared(DROP_OLDEST).run(live ? 1 : 0, deviceId, live ? 1 : 0, deviceId, keep);
        prepared(DROP_BEFORE).run(sqlDate(before));
      }),
    ),
  list: async (live, deviceId, take) =>
    (
      prepared(LIST).all(live ? 1 : 0, deviceId, take) as (Omit<DeviceLogLine, "createdAt"> & {
        createdAt: string;
        receivedAt: string;
      })[]
    ).map((r) => ({ ...r, createdAt: rowDate(r.createdAt)!, receivedAt: rowDate(r.receivedAt)! })),
};
