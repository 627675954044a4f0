import {
  GEOFENCE_TRACKING,
  type GeofenceTrackingReader,
  type Membership,
  type MembershipChanges,
} from "../../storage/memberships";
import type { TrackedGeofence } from "../../storage/geofences";
import type { GeofenceIndex } from "../geofence-index";
import { geofencesNow } from "./geofence-index";
import { type Queryable, gathered, rows } from "./sql";
import { pgPart, rowsOf } from "./tracking-part";

/* Memberships: which geofences a user is in; the geofence events' part of tracking. */

const GEOFENCE_COLUMNS = `"seq", "id", "live", "description", "tag", "externalId", "type", "geometry",
  "centerLng", "centerLat", "radius", "metadata", "enabled", "dwellThreshold", "userIds", "stopDetection",
  "disableAfter", "deleteAfter", "createdAt", "updatedAt"`;

type TrackedRow = Omit<TrackedGeofence, "ring">;

const toTracked = (g: TrackedRow): TrackedGeofence => ({
  ...g,
  ring: g.type === "circle" ? [] : (g.geometry[0] ?? []),
});

export function trackedGeofencesBySeqs(seqs: readonly number[], on: Queryable) {
  if (!seqs.length) return Promise.resolve([]);
  return rows<TrackedRow>(
    `SELECT ${GEOFENCE_COLUMNS} FROM "Geofence" WHERE "seq" = ANY($1::int[])`,
    [seqs],
    on,
  ).then((r) => r.map(toTracked));
}

async function geofenceSeqsByIds(
  client: Queryable,
  live: boolean,
  ids: readonly string[],
): Promise<number[]> {
  if (!ids.length) return [];
  const found = await rows<{ seq: number }>(
    `SELECT "seq" FROM "Geofence" WHERE "live" = $1 AND "id" = ANY($2::text[])`,
    [live, ids],
    client,
  );
  return found.map((r) => r.seq);
}

/** The geofences a batch's decisions need decoded, in one statement. */
function gatheredGeofences(client: Queryable) {
  return gathered(async (asked: (readonly number[])[]) => {
    const found = await trackedGeofencesBySeqs([...new Set(asked.flat())], client);
    const bySeq = new Map<number, TrackedGeofence>(found.map((g) => [g.seq, g]));
    return asked.map((seqs) => seqs.flatMap((s) => bySeq.get(s) ?? []));
  });
}

/** A membership as the user row's column carries it. */
const membershipOf = ([geofenceSeq, enteredAt, dwelled]: [number, string, boolean]): Membership => ({
  geofenceSeq,
  enteredAt: new Date(enteredAt),
  dwelled,
});

export const geofenceTracking = pgPart({
  part: GEOFENCE_TRACKING,
  // Read with the user: decide asks for the memberships of the user it found next.
  withUser: {
    column: `(SELECT COALESCE(json_agg(json_build_array(m."geofenceSeq", m."enteredAt", m."dwelled")), '[]')
      FROM "UserGeofence" m WHERE m."userSeq" = "User"."seq")`,
    parse: (v) => (v as [number, string, boolean][]).map(membershipOf),
  },
  reader({ client, batched, withUser }): GeofenceTrackingReader {
    let geofences: Promise<GeofenceIndex> | undefined;
    const found = withUser(GEOFENCE_TRACKING.name) as Map<number, Membership[]>;
    return {
      // Nothing of the user's is written before decide asks: what was read with it still holds.
      memberships: async (userSeq) =>
        found.get(userSeq) ??
        rows<Membership>(
          `SELECT "geofenceSeq", "enteredAt", "dwelled" FROM "UserGeofence" WHERE "userSeq" = $1`,
          [userSeq],
          client,
        ),
      // From this process's index of geofences, brought up to date once per transaction (at its
      // first question: one statement, usually no row; ./geofence-index.ts).
      geofenceVersionsNear: async (live, box, seqs) =>
        (await (geofences ??= geofencesNow(client))).near(live, box, seqs),
      geofencesBySeqs: batched ? gatheredGeofences(client) : (seqs) => trackedGeofencesBySeqs(seqs, client),
      geofenceSeqsByIds: (live, ids) => geofenceSeqsByIds(client, live, ids),
    };
  },
  inStatement: {
    ctes: (param) => `mb AS (SELECT * FROM ${rowsOf(param, "r", [
      ["k", "int"],
      ["op", "text"],
      ["gs", "int"],
      ["t", "timestamptz"],
    ])}),
  mx AS (DELETE FROM "UserGeofence" g USING mb, u
        WHERE mb.op = 'x' AND u.k = mb.k AND g."userSeq" = u."seq" AND g."geofenceSeq" = mb.gs),
  mm AS (INSERT INTO "UserGeofence" ("userSeq", "geofenceSeq", "enteredAt", "dwelled")
        SELECT u."seq", mb.gs, mb.t, false FROM mb JOIN u ON u.k = mb.k WHERE mb.op = 'm'),
  md AS (UPDATE "UserGeofence" g SET "dwelled" = true FROM mb, u
        WHERE mb.op = 'd' AND u.k = mb.k AND g."userSeq" = u."seq" AND g."geofenceSeq" = mb.gs)`,
    rows: (k, { exited, entered, dwelled }: MembershipChanges) => [
      ...exited.map((g) => [k, "x", g, null]),
      ...entered.map((m) => [k, "m", m.geofenceSeq, m.enteredAt]),
      ...dwelled.map((g) => [k, "d", g, null]),
    ],
  },
});
