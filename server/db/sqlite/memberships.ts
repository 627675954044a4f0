import type { GeofenceTrackingReader, Membership } from "../../storage/memberships";
import { GEOFENCE_TRACKING } from "../../storage/memberships";
import { prepared, sqlDate } from "./connection";
import { SqliteGeofenceIndex } from "./geofence-index";
import { geofencesBySeqs, geofenceSeqsByIds } from "./tracking-sql";
import { sqlitePart } from "./tracking-part";

/* Memberships: which geofences a user is in; the geofence events' part of tracking. */

export function membershipsOf(userSeq: number): Membership[] {
  const rows = prepared(
    `SELECT "geofenceSeq", "enteredAt", "dwelled" FROM "UserGeofence" WHERE "userSeq" = ?`,
  ).all(userSeq) as { geofenceSeq: number; enteredAt: string; dwelled: number }[];
  return rows.map((r) => ({
    geofenceSeq: r.geofenceSeq,
    enteredAt: new Date(r.enteredAt),
    dwelled: r.dwelled === 1,
  }));
}

export function addMembership(userSeq: number, geofenceSeq: number, enteredAt: Date): void {
  prepared(
    `INSERT INTO "UserGeofence" ("userSeq", "geofenceSeq", "enteredAt", "dwelled") VALUES (?, ?, ?, 0)`,
  ).run(userSeq, geofenceSeq, sqlDate(enteredAt));
}

export function removeMembership(userSeq: number, geofenceSeq: number): void {
  prepared(`DELETE FROM "UserGeofence" WHERE "userSeq" = ? AND "geofenceSeq" = ?`).run(userSeq, geofenceSeq);
}

export function markDwelled(userSeq: number, geofenceSeq: number): void {
  prepared(`UPDATE "UserGeofence" SET "dwelled" = 1 WHERE "userSeq" = ? AND "geofenceSeq" = ?`).run(
    userSeq,
    geofenceSeq,
  );
}

/** Every geofence's box and version, brought up to date at the start of each batch's transaction. */
const geofences = new SqliteGeofenceIndex(prepared);

const reader: GeofenceTrackingReader = {
  memberships: async (userSeq) => membershipsOf(userSeq),
  geofenceVersionsNear: async (live, box, seqs) => geofences.near(live, box, seqs),
  geofencesBySeqs: async (seqs) => geofencesBySeqs(seqs),
  geofenceSeqsByIds: async (live, ids) => geofenceSeqsByIds(live, ids),
};

export const geofenceTracking = sqlitePart({
  part: GEOFENCE_TRACKING,
  reader,
  begin: () => geofences.refresh(),
  write(userSeq, { exited, entered, dwelled }) {
    for (const seq of exited) removeMembership(userSeq, seq);
    for (const m of entered) addMembership(userSeq, m.geofenceSeq, m.enteredAt);
    for (const seq of dwelled) markDwelled(userSeq, seq);
  },
});
