import type { UserStore } from "../../storage/users";
import { withWriteLock } from "../write-lock";
import { prepared, sqlDate, transaction } from "./connection";
import { shared } from "./shared-stores";
import { deleteUserEverything, userSeqsInBox } from "./tracking-sql";

/** Users inside a geofence now, newest update first, in the window of the cursors (all: take -1). */
export function userSeqsInGeofence(
  geofenceSeq: number,
  q: { take?: number; updatedBefore?: Date; updatedAfter?: Date },
): { seq: number; updatedAt: Date }[] {
  const rows = prepared(
    `SELECT u."seq", u."updatedAt" FROM "UserGeofence" m JOIN "User" u ON u."seq" = m."userSeq"
     WHERE m."geofenceSeq" = ? AND (? IS NULL OR u."updatedAt" < ?) AND (? IS NULL OR u."updatedAt" > ?)
     ORDER BY u."updatedAt" DESC, u."id" DESC LIMIT ?`,
  ).all(
    geofenceSeq,
    q.updatedBefore ? 1 : null,
    q.updatedBefore ? sqlDate(q.updatedBefore) : null,
    q.updatedAfter ? 1 : null,
    q.updatedAfter ? sqlDate(q.updatedAfter) : null,
    q.take ?? -1,
  ) as { seq: number; updatedAt: string }[];
  return rows.map((r) => ({ seq: r.seq, updatedAt: new Date(r.updatedAt) }));
}

/** The device and userId of the latest user of this SDK install (the index's expression: migration 20261206000000_user_install_id). */
export function userByInstallId(
  live: boolean,
  installId: string,
): { deviceId: string; userId: string | null } | null {
  return (
    (prepared(
      `SELECT "deviceId", "userId" FROM "User" WHERE "live" = ? AND json_extract("device", '$.installId') = ?
       ORDER BY "updatedAt" DESC LIMIT 1`,
    ).get(live ? 1 : 0, installId) as { deviceId: string; userId: string | null } | undefined) ?? null
  );
}

export const sqliteUsers: UserStore = {
  ...shared.users,
  seqsInGeofence: async (geofenceSeq, q) => userSeqsInGeofence(geofenceSeq, q),
  byInstallId: async (live, installId) => userByInstallId(live, installId),
  inBox: async (live, box, metadata) => userSeqsInBox(live, box, metadata),
  deleteEverything: (seq) => withWriteLock(() => transaction(() => deleteUserEverything(seq))),
};
