import type { GeofenceBatch, GeofenceChange, GeofenceStore } from "../../storage/geofences";
import type { GeofenceColumns } from "../../storage/geofence-records";
import { databaseCode } from "../../errors";
import { ChangedMeanwhile, WRITTEN_COLUMNS, newGeofenceStamp, nextVersion } from "../geofence-batch";
import { VERSION_MS } from "./geofence-rows";
import { processOnce } from "../../process-once";
import { withWriteLock } from "../write-lock";
import { prepared, sqlDate, transaction } from "./connection";
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
  applyMany: (live, changes) => withWriteLock(() => applyMany(live, changes)),
  reconcileMembers: (geofenceSeqs, stillInside) =>
    withWriteLock(() =>
      transaction(() => {
        const now = new Map(geofencesBySeqs(geofenceSeqs).map((g) => [g.seq, g]));
        for (const seq of geofenceSeqs) {
          for (const m of membersOfGeofence(seq)) {
            if (!stillInside(now.get(seq) ?? null, m)) removeMembership(m.userSeq, seq);
          }
        }
      }),
    ),
};

/** A write's column as SQLite stores it (as Prisma does: JSON as text, booleans 0/1, dates as sqlDate). */
const stored = (v: GeofenceColumns[(typeof WRITTEN_COLUMNS)[number]]) =>
  v === null || v === undefined
    ? null
    : v instanceof Date
      ? sqlDate(v)
      : typeof v === "boolean"
        ? Number(v)
        : typeof v === "object"
          ? JSON.stringify(v)
          : v;
const values = (c: GeofenceColumns) => WRITTEN_COLUMNS.map((k) => stored(c[k]));
const names = (cols: readonly string[]) => cols.map((c) => `"${c}"`).join(", ");

const INSERT = `INSERT INTO "Geofence" (${names(["id", "live", "createdAt", "updatedAt", ...WRITTEN_COLUMNS])})
  VALUES (${[...WRITTEN_COLUMNS, 1, 2, 3, 4].map(() => "?").join(", ")})`;
const UPDATE = `UPDATE "Geofence" SET ${[...WRITTEN_COLUMNS, "updatedAt"].map((c) => `"${c}" = ?`).join(", ")}
  WHERE "seq" = ? AND "live" = ? AND ${VERSION_MS('"Geofence"')} = ?`;

/**
 * A chunk of an import, whole or not at all, in one synchronous transaction under the write lock:
 * tracking waits for it a few milliseconds, however busy the event loop. (Through Prisma, one
 * awaited statement per row, it held the lock for about a second on a loaded machine.)
 */
function applyMany(live: boolean, changes: readonly GeofenceChange[]): GeofenceBatch {
  try {
    return transaction(() => {
      let created = 0;
      const updated: number[] = [];
      const changed: number[] = [];
      for (const c of changes) {
        if (c.seq === null) {
          const { id, createdAt, updatedAt } = newGeofenceStamp(live);
          prepared(INSERT).run(
            id,
            Number(live),
            sqlDate(createdAt),
            sqlDate(updatedAt),
            ...values(c.columns),
          );
          created++;
        } else {
          // Only the version the change was made from: another request or app process may have
          // changed it since.
          const { changes: n } = prepared(UPDATE).run(
            ...values(c.columns),
            sqlDate(nextVersion(c.version)),
            c.seq,
            Number(live),
            c.version.getTime(),
          );
          (n ? updated : changed).push(c.seq);
        }
      }
      if (changed.length) throw new ChangedMeanwhile(changed);
      return { status: "written" as const, created, updated };
    });
  } catch (e) {
    if (e instanceof ChangedMeanwhile) return { status: "changed", seqs: e.seqs };
    if (databaseCode(e) === "SQLITE_CONSTRAINT_UNIQUE") return { status: "taken" };
    throw e;
  }
}
