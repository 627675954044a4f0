import type { GeofenceStore } from "../../storage/geofences";
import { processOnce } from "../../process-once";
import { withWriteLock } from "../write-lock";
import { prepared, transaction } from "./connection";
import { SqliteGeofenceIndex } from "./geofence-index";
import { shared } from "./shared-stores";
import type { MemberPosition } from "../../storage/geofences";
import { geofencesBySeqs } from "./tracking-sql";
import { removeMembership } from "./memberships";

/** The users inside a geofence now, with their last location. */
export function membersOfGeofence(geofenceSeq: number) {
  return prepared(
    `SELECT m."userSeq", u."userId", u."latitude", u."longitude", u."accuracy" FROM "UserGeofence" m
     JOIN "User" u ON u."seq" = m."userSeq" WHERE m."geofenceSeq" = ?`,
  ).all(geofenceSeq) as MemberPosition[];
}

export const sqliteGeofences: GeofenceStore = {
  ...shared.geofences,
  async inBox(live, box, filter) {
    // This thread's index of geofences (the tracking thread keeps its own): the changes since it
    // was last asked applied first (one indexed read, usually of no row).
    const index = processOnce("sqlite-geofence-index", () => new SqliteGeofenceIndex(prepared));
    index.refresh();
    return index.inBox(live, box, filter);
  },
  decodable: async (seqs) => geofencesBySeqs(seqs),
  reconcileMembers: (geofenceSeq, stillInside) =>
    withWriteLock(() =>
      transaction(() => {
        const g = geofencesBySeqs([geofenceSeq])[0] ?? null;
        for (const m of membersOfGeofence(geofenceSeq)) {
          if (!stillInside(g, m)) removeMembership(m.userSeq, geofenceSeq);
        }
      }),
    ),
};
