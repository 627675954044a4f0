import type { GeofenceBatch, GeofenceChange, GeofenceStore, MemberPosition } from "../../storage/geofences";
import type { GeofenceColumns } from "../../storage/geofence-records";
import { databaseCode } from "../../errors";
import { ChangedMeanwhile, WRITTEN_COLUMNS, newGeofenceStamp, nextVersion } from "../geofence-batch";
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
  applyMany: async (live, changes) => (await clockSeeded(), applyMany(live, changes)),
  // This process's index of geofences (the tracking thread keeps its own), brought up to date
  // first (one indexed read, usually of no row, shared by the searches of one turn).
  inBox: async (live, box, filter) => (await geofencesForSearch(pool())).inBox(live, box, filter),
  decodable: (seqs) => trackedGeofencesBySeqs(seqs, pool()),
  reconcileMembers: (geofenceSeqs, stillInside) =>
    inTransaction(async (client) => {
      // Both reads in one round trip (the connection pipelines).
      const [geofences, members] = await Promise.all([
        trackedGeofencesBySeqs(geofenceSeqs, client),
        rows<MemberPosition & { geofenceSeq: number }>(
          `SELECT m."geofenceSeq", m."userSeq", u."userId", u."latitude", u."longitude", u."accuracy"
           FROM "UserGeofence" m JOIN "User" u ON u."seq" = m."userSeq" WHERE m."geofenceSeq" = ANY($1::int[])`,
          [geofenceSeqs],
          client,
        ),
      ]);
      const now = new Map(geofences.map((g) => [g.seq, g]));
      const gone = members.filter((m) => !stillInside(now.get(m.geofenceSeq) ?? null, m));
      if (gone.length) {
        await rows(
          `DELETE FROM "UserGeofence" m USING unnest($1::int[], $2::int[]) AS d("geofenceSeq", "userSeq")
           WHERE m."geofenceSeq" = d."geofenceSeq" AND m."userSeq" = d."userSeq"`,
          [gone.map((m) => m.geofenceSeq), gone.map((m) => m.userSeq)],
          client,
        );
      }
    }),
};

const asJson = (c: GeofenceColumns) => ({ ...c, metadata: c.metadata ?? null });
const list = (cols: readonly string[], prefix = "") => cols.map((c) => `${prefix}"${c}"`).join(", ");

/**
 * A chunk's rows read from one JSON parameter as "Geofence" records (a JSON null is SQL NULL): the
 * new ones in one INSERT, in the chunk's order; the replaced ones in one UPDATE, each only at the
 * version it was made from.
 */
const ROWS = `jsonb_populate_recordset(NULL::"Geofence", $1::jsonb) WITH ORDINALITY AS v`;
const NEW_COLUMNS = ["id", "live", ...WRITTEN_COLUMNS, "createdAt", "updatedAt"];
const INSERT = `INSERT INTO "Geofence" (${list(NEW_COLUMNS)})
  SELECT ${list(NEW_COLUMNS, "v.")} FROM ${ROWS} ORDER BY v."ordinality"`;
const UPDATE = `UPDATE "Geofence" g SET (${list([...WRITTEN_COLUMNS, "updatedAt"])}) = (${list([...WRITTEN_COLUMNS, "updatedAt"], "v.")})
  FROM ${ROWS}, unnest($2::int[], $3::timestamptz[]) AS w("seq", "version")
  WHERE v."seq" = w."seq" AND g."seq" = w."seq" AND g."live" = $4 AND g."updatedAt" = w."version"
  RETURNING g."seq"`;

/**
 * A chunk of an import, whole or not at all, in two statements sent with BEGIN: the geofence change
 * counter (migration 20261212000000_geofence_changes) stays locked for about one round trip,
 * however many rows, so edits beside an import and tracking at full speed do not wait behind it.
 * (One statement per row, each awaited through a busy event loop, held it for seconds.)
 */
async function applyMany(live: boolean, changes: readonly GeofenceChange[]): Promise<GeofenceBatch> {
  const creates = changes.flatMap((c) =>
    c.seq === null ? [{ ...asJson(c.columns), ...newGeofenceStamp(live) }] : [],
  );
  const updates = changes.flatMap((c) => (c.seq === null ? [] : [c]));
  try {
    return await inTransaction(async (client) => {
      const [inserted, replaced] = await Promise.allSettled([
        creates.length ? rows(INSERT, [JSON.stringify(creates)], client) : null,
        updates.length
          ? rows<{ seq: number }>(
              UPDATE,
              [
                JSON.stringify(
                  updates.map((c) => ({
                    ...asJson(c.columns),
                    seq: c.seq,
                    updatedAt: nextVersion(c.version),
                  })),
                ),
                updates.map((c) => c.seq),
                updates.map((c) => c.version.toISOString()),
                live,
              ],
              client,
            )
          : [],
      ]);
      // The INSERT's failure first: the UPDATE behind it only says the transaction was aborted.
      if (inserted.status === "rejected") throw inserted.reason;
      if (replaced.status === "rejected") throw replaced.reason;
      const written = new Set(replaced.value.map((r) => r.seq));
      const changed = updates.filter((c) => !written.has(c.seq)).map((c) => c.seq);
      if (changed.length) throw new ChangedMeanwhile(changed);
      return { status: "written" as const, created: creates.length, updated: updates.map((c) => c.seq) };
    });
  } catch (e) {
    if (e instanceof ChangedMeanwhile) return { status: "changed", seqs: e.seqs };
    if (databaseCode(e) === "23505") return { status: "taken" };
    throw e;
  }
}
