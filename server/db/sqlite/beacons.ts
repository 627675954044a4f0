import {
  BEACON_TRACKING,
  type BeaconStore,
  type BeaconTrackingReader,
  type StoredBeacon,
} from "../../storage/beacons";
import { prepared, sqlDate } from "./connection";
import { shared } from "./shared-stores";
import { sqlitePart } from "./tracking-part";

/* Beacons: their store (Prisma, ../prisma/beacons.ts) and the beacon events' part of tracking. */

export const sqliteBeacons: BeaconStore = shared.beacons;

interface BeaconRow extends Omit<StoredBeacon, "live" | "enabled" | "metadata" | "createdAt" | "updatedAt"> {
  live: number;
  enabled: number;
  metadata: string | null;
  createdAt: string;
  updatedAt: string;
}

const COLUMNS = `b."seq", b."id", b."live", b."description", b."tag", b."externalId", b."uuid", b."major", b."minor",
  b."longitude", b."latitude", b."metadata", b."enabled", b."createdAt", b."updatedAt"`;

const beaconOf = (r: BeaconRow): StoredBeacon => ({
  ...r,
  live: r.live === 1,
  enabled: r.enabled === 1,
  metadata: r.metadata === null ? null : (JSON.parse(r.metadata) as StoredBeacon["metadata"]),
  createdAt: new Date(r.createdAt),
  updatedAt: new Date(r.updatedAt),
});

const reader: BeaconTrackingReader = {
  async beaconsOf(userSeq) {
    const rows = prepared(
      `SELECT m."beaconSeq", m."enteredAt", ${COLUMNS} FROM "UserBeacon" m
       LEFT JOIN "Beacon" b ON b."seq" = m."beaconSeq" WHERE m."userSeq" = ?`,
    ).all(userSeq) as (BeaconRow & { beaconSeq: number; enteredAt: string })[];
    return rows.map((r) => ({
      beaconSeq: r.beaconSeq,
      enteredAt: new Date(r.enteredAt),
      beacon: r.id === null ? null : beaconOf(r),
    }));
  },
  async beaconsRanged(live, ranged) {
    const find = prepared(
      `SELECT ${COLUMNS} FROM "Beacon" b
       WHERE b."live" = ? AND b."uuid" = ? AND b."major" = ? AND b."minor" = ? AND b."enabled"`,
    );
    return ranged.flatMap((r) =>
      (find.all(live ? 1 : 0, r.uuid, r.major, r.minor) as BeaconRow[]).map(beaconOf),
    );
  },
};

export const beaconTracking = sqlitePart({
  part: BEACON_TRACKING,
  reader,
  write(userSeq, { entered, exited }) {
    const remove = prepared(`DELETE FROM "UserBeacon" WHERE "userSeq" = ? AND "beaconSeq" = ?`);
    for (const seq of exited) remove.run(userSeq, seq);
    const add = prepared(
      `INSERT INTO "UserBeacon" ("userSeq", "beaconSeq", "enteredAt") VALUES (?, ?, ?)
       ON CONFLICT ("userSeq", "beaconSeq") DO NOTHING`,
    );
    for (const m of entered) add.run(userSeq, m.beaconSeq, sqlDate(m.enteredAt));
  },
});
