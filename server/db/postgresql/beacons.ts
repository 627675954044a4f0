import {
  BEACON_TRACKING,
  type BeaconChanges,
  type BeaconStore,
  type BeaconTrackingReader,
  type StoredBeacon,
} from "../../storage/beacons";
import { rows } from "./sql";
import { shared } from "./shared-stores";
import { pgPart, rowsOf } from "./tracking-part";

/* Beacons: their store (Prisma, ../prisma/beacons.ts) and the beacon events' part of tracking. */

export const postgresBeacons: BeaconStore = shared.beacons;

const COLUMNS = `b."seq", b."id", b."live", b."description", b."tag", b."externalId", b."uuid", b."major", b."minor",
  b."longitude", b."latitude", b."metadata", b."enabled", b."createdAt", b."updatedAt"`;

type Inside = Awaited<ReturnType<BeaconTrackingReader["beaconsOf"]>>;

/** A beacon as to_jsonb gives it (times as text). */
const fromJson = (b: Record<string, unknown> | null): StoredBeacon | null =>
  b && {
    ...(b as unknown as StoredBeacon),
    createdAt: new Date(b.createdAt as string),
    updatedAt: new Date(b.updatedAt as string),
  };

export const beaconTracking = pgPart({
  part: BEACON_TRACKING,
  // Read with the user: every update of a known user asks which beacons it is in.
  withUser: {
    column: `(SELECT COALESCE(json_agg(json_build_array(m."beaconSeq", m."enteredAt", to_jsonb(b))), '[]')
      FROM "UserBeacon" m LEFT JOIN "Beacon" b ON b."seq" = m."beaconSeq" WHERE m."userSeq" = "User"."seq")`,
    parse: (v): Inside =>
      (v as [number, string, Record<string, unknown> | null][]).map(([beaconSeq, enteredAt, b]) => ({
        beaconSeq,
        enteredAt: new Date(enteredAt),
        beacon: fromJson(b),
      })),
  },
  reader: ({ client, withUser }): BeaconTrackingReader => ({
    async beaconsOf(userSeq) {
      const read = (withUser(BEACON_TRACKING.name) as Map<number, Inside>).get(userSeq);
      if (read) return read;
      const found = await rows<StoredBeacon & { beaconSeq: number; enteredAt: Date }>(
        `SELECT m."beaconSeq", m."enteredAt", ${COLUMNS} FROM "UserBeacon" m
         LEFT JOIN "Beacon" b ON b."seq" = m."beaconSeq" WHERE m."userSeq" = $1`,
        [userSeq],
        client,
      );
      return found.map(({ beaconSeq, enteredAt, ...b }) => ({
        beaconSeq,
        enteredAt,
        beacon: b.id === null ? null : (b as StoredBeacon),
      }));
    },
    async beaconsRanged(live, ranged) {
      if (!ranged.length) return [];
      return rows<StoredBeacon>(
        `SELECT ${COLUMNS} FROM "Beacon" b
         JOIN unnest($2::text[], $3::text[], $4::text[]) AS r(uuid, major, minor)
           ON b."uuid" = r.uuid AND b."major" = r.major AND b."minor" = r.minor
         WHERE b."live" = $1 AND b."enabled"`,
        [live, ranged.map((r) => r.uuid), ranged.map((r) => r.major), ranged.map((r) => r.minor)],
        client,
      );
    },
  }),
  inStatement: {
    ctes: (param) => `bc AS (SELECT * FROM ${rowsOf(param, "r", [
      ["k", "int"],
      ["op", "text"],
      ["bs", "int"],
      ["t", "timestamptz"],
    ])}),
  bx AS (DELETE FROM "UserBeacon" g USING bc, u
        WHERE bc.op = 'x' AND u.k = bc.k AND g."userSeq" = u."seq" AND g."beaconSeq" = bc.bs),
  bm AS (INSERT INTO "UserBeacon" ("userSeq", "beaconSeq", "enteredAt")
        SELECT u."seq", bc.bs, bc.t FROM bc JOIN u ON u.k = bc.k WHERE bc.op = 'm'
        ON CONFLICT ("userSeq", "beaconSeq") DO NOTHING)`,
    rows: (k, { entered, exited }: BeaconChanges) => [
      ...exited.map((b) => [k, "x", b, null]),
      ...entered.map((m) => [k, "m", m.beaconSeq, m.enteredAt]),
    ],
  },
});
