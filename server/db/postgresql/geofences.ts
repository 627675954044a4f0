import type { GeofenceStore, MemberPosition } from "../../storage/geofences";
import { clockSeeded } from "./clock-seed";
import { geofencesForSearch } from "./geofence-index";
import { pool } from "./pool";
import { shared } from "./shared-stores";
import { inTransaction, rows } from "./sql";
import { trackedGeofencesBySeqs } from "./memberships";

export const postgresGeofences: GeofenceStore = {
  ...shared.geofences,
  // New geofences and versions are stamped by this thread's clock: set it first.
  create: async (live, columns) => (await clockSeeded(), shared.geofences.create(live, columns)),
  put: async (live, columns) => (await clockSeeded(), shared.geofences.put(live, columns)),
  update: async (seq, version, columns) => (
    await clockSeeded(),
    shared.geofences.update(seq, version, columns)
  ),
  applyMany: async (live, changes) => (await clockSeeded(), shared.geofences.applyMany(live, changes)),
  // This process's index of geofences (the tracking thread keeps its own), brought up to date
  // first (one indexed read, usually of no row, shared by the searches of one turn).
  inBox: async (live, box, filter) => (await geofencesForSearch(pool())).inBox(live, box, filter),
  decodable: (seqs) => trackedGeofencesBySeqs(seqs, pool()),
  reconcileMembers: (geofenceSeq, stillInside) =>
    inTransaction(async (client) => {
      const g = (await trackedGeofencesBySeqs([geofenceSeq], client))[0] ?? null;
      const members = await rows<MemberPosition>(
        `SELECT m."userSeq", u."userId", u."latitude", u."longitude", u."accuracy" FROM "UserGeofence" m
         JOIN "User" u ON u."seq" = m."userSeq" WHERE m."geofenceSeq" = $1`,
        [geofenceSeq],
        client,
      );
      const gone = members.filter((m) => !stillInside(g, m)).map((m) => m.userSeq);
      if (gone.length) {
        await rows(
          `DELETE FROM "UserGeofence" WHERE "geofenceSeq" = $1 AND "userSeq" = ANY($2::int[])`,
          [geofenceSeq, gone],
          client,
        );
      }
    }),
};
