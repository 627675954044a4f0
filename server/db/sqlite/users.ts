import type { UserStore } from "../../storage/users";
import { withWriteLock } from "../write-lock";
import { prepared, sqlDate, transaction } from "./connection";
import { shared } from "./shared-stores";
import type { BBox } from "../../geo/distance";
import { type MetadataFilter, matchingRows } from "../../storage/metadata-filter";
import { deleteUserOutbox } from "./webhooks";

/**
 * Users of one world whose last location lies in `box`. The R*Tree holds each user's grid cell
 * (see the user_rtree_cells migration), so it yields candidates and the exact position decides.
 */
export function userSeqsInBox(
  live: boolean,
  box: BBox,
  metadata?: MetadataFilter,
): { seq: number; latitude: number; longitude: number }[] {
  const rows = prepared(
    `SELECT u."seq", u."latitude", u."longitude"${metadata ? `, u."metadata"` : ""}
     FROM "UserRTree" r CROSS JOIN "User" u ON u."seq" = r."seq"
     WHERE r."maxLng" >= ? AND r."minLng" <= ? AND r."maxLat" >= ? AND r."minLat" <= ? AND u."live" = ?
       AND u."longitude" BETWEEN ? AND ? AND u."latitude" BETWEEN ? AND ?`,
  ).all(
    box.minLng,
    box.maxLng,
    box.minLat,
    box.maxLat,
    live ? 1 : 0,
    box.minLng,
    box.maxLng,
    box.minLat,
    box.maxLat,
  ) as {
    seq: number;
    latitude: number;
    longitude: number;
    metadata?: string | null;
  }[];
  if (!metadata) return rows;
  return matchingRows(rows, metadata);
}

/**
 * A user and everything about them: locations, memberships, events and their verifications;
 * whether there was such a user to delete.
 */
export function deleteUserEverything(seq: number): boolean {
  prepared(
    `DELETE FROM "EventVerification" WHERE "eventSeq" IN (SELECT "seq" FROM "Event" WHERE "userSeq" = ?)`,
  ).run(seq);
  prepared(`DELETE FROM "Event" WHERE "userSeq" = ?`).run(seq);
  prepared(`DELETE FROM "UserLocation" WHERE "userSeq" = ?`).run(seq);
  prepared(`DELETE FROM "UserGeofence" WHERE "userSeq" = ?`).run(seq);
  const user = prepared(`SELECT "id", "live", "deviceId", "userId" FROM "User" WHERE "seq" = ?`).get(seq) as
    { id: string; live: number; deviceId: string; userId: string | null } | undefined;
  // Webhook requests carry the user's data, sent or not, its device's logs and its trips (where
  // it went): they go too.
  if (user) {
    deleteUserOutbox(user.id);
    prepared(`DELETE FROM "DeviceLog" WHERE "live" = ? AND "deviceId" = ?`).run(user.live, user.deviceId);
    if (user.userId !== null) {
      prepared(`DELETE FROM "Trip" WHERE "live" = ? AND "userId" = ?`).run(user.live, user.userId);
    } else {
      prepared(`DELETE FROM "Trip" WHERE "live" = ? AND "deviceId" = ? AND "userId" IS NULL`).run(
        user.live,
        user.deviceId,
      );
    }
  }
  return prepared(`DELETE FROM "User" WHERE "seq" = ?`).run(seq).changes > 0;
}

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
