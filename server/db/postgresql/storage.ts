import type { ConversionDay, EventStore } from "../../storage/events";
import type { GeofenceStore, MemberPosition } from "../../storage/geofences";
import type { KeyKind, KeyStore, StoredKey } from "../../storage/keys";
import type { SettingStore } from "../../storage/settings";
import type { Storage } from "../../storage/port";
import type { UserStore } from "../../storage/users";
import { clockSeeded } from "./clock-seed";
import { matchingRows } from "../../storage/metadata-filter";
import { prismaStores } from "../prisma-stores";
import { deleteUserOutbox, postgresOutbox } from "./outbox";
import { pool } from "./pool";
import { inTransaction, row, rows } from "./sql";
import { activeTripsGathered } from "./trips";
import { geofencesForSearch } from "./geofence-index";
import { ENVELOPE, trackedGeofencesBySeqs, verificationCounts } from "./tracking";
import { postgresTracking } from "./tracking-batch";
import { postgresOverview } from "./overview";
import { postgresSystem } from "./system";

/**
 * The PostgreSQL + PostGIS adapter of the storage port (server/storage/port.ts): what several
 * app processes share. Spatial lookups use the PostGIS columns the migrations add (a geofence's
 * box, a user's position) and their GiST indexes; writes through Prisma run as they come (the
 * database orders them: no process-wide lock), and tracking locks per device (./tracking.ts).
 */

const shared = prismaStores((fn) => Promise.resolve().then(fn));

const KEY_COLUMNS = `"id", "kind", "live", "name", "prefix", "createdAt", "lastUsedAt", "revokedAt"`;
const KEY_VERSION = `(SELECT "version"::text FROM "KeyVersion" WHERE "id" = 1)`;
type KeyRow = Omit<StoredKey, "kind"> & { kind: string };

const keys: KeyStore = {
  ...shared.keys,
  async byHash(hash) {
    const k = await row<KeyRow>(`SELECT ${KEY_COLUMNS} FROM "ApiKey" WHERE "hash" = $1`, [hash]);
    return k && { ...k, kind: k.kind as KeyKind };
  },
  async byHashWithVersion(hash) {
    // One statement, one snapshot: the key and the version it was read at.
    const r = (await row<Partial<KeyRow> & { version: string }>(
      `SELECT ${KEY_VERSION} AS "version", k.* FROM (SELECT 1) one LEFT JOIN
         (SELECT ${KEY_COLUMNS} FROM "ApiKey" WHERE "hash" = $1) k ON true`,
      [hash],
    ))!;
    const { version, ...k } = r;
    return { key: k.id ? ({ ...k, kind: k.kind as KeyKind } as StoredKey) : null, version };
  },
  async version() {
    return (await row<{ version: string }>(`SELECT ${KEY_VERSION} AS "version"`))!.version;
  },
};

const settings: SettingStore = {
  async get(key) {
    return (
      (await row<{ value: string }>(`SELECT "value" FROM "Setting" WHERE "key" = $1`, [key]))?.value ?? null
    );
  },
  set: shared.settings.set,
};

const events: EventStore = {
  ...shared.events,
  verificationCounts: (live, subject, type, band) => verificationCounts(pool(), live, subject, type, band),
  conversionsPerDay: (live, since) =>
    rows<ConversionDay>(
      `SELECT to_char("createdAt" AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS "day", "type" AS "name",
         COUNT(*)::int AS "count", COALESCE(SUM(("metadata"->>'revenue')::float8), 0) AS "revenue"
       FROM "Event" WHERE "live" = $1 AND "createdAt" >= $2 AND "type" NOT LIKE 'user.%'
       GROUP BY 1, 2 ORDER BY 1, 2`,
      [live, since],
    ),
};

const geofences: GeofenceStore = {
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

const users: UserStore = {
  ...shared.users,
  byInstallId: (live, installId) =>
    // The expression is the index's (migration 20261206000000_user_install_id).
    row<{ deviceId: string; userId: string | null }>(
      `SELECT "deviceId", "userId" FROM "User" WHERE "live" = $1 AND ("device"->>'installId') = $2
       ORDER BY "updatedAt" DESC LIMIT 1`,
      [live, installId],
    ).then((r) => r ?? null),
  async seqsInGeofence(geofenceSeq, q) {
    return rows<{ seq: number; updatedAt: Date }>(
      `SELECT u."seq", u."updatedAt" FROM "UserGeofence" m JOIN "User" u ON u."seq" = m."userSeq"
       WHERE m."geofenceSeq" = $1 AND ($2::timestamptz IS NULL OR u."updatedAt" < $2)
         AND ($3::timestamptz IS NULL OR u."updatedAt" > $3)
       ORDER BY u."updatedAt" DESC, u."id" DESC LIMIT $4`,
      [geofenceSeq, q.updatedBefore ?? null, q.updatedAfter ?? null, q.take ?? null],
    );
  },
  async inBox(live, box, metadata) {
    const found = await rows<{ seq: number; latitude: number; longitude: number; metadata?: unknown }>(
      `SELECT "seq", "latitude", "longitude"${metadata ? `, "metadata"` : ""} FROM "User"
       WHERE "position" && ${ENVELOPE(1)} AND "live" = $5`,
      [box.minLng, box.minLat, box.maxLng, box.maxLat, live],
    );
    if (!metadata) return found;
    return matchingRows(found, metadata);
  },
  deleteEverything: (seq) =>
    inTransaction(async (client) => {
      // Locked first: an update of the user (which reads it FOR UPDATE) and another delete wait
      // for this one, and then find no user.
      const found = await rows<{ id: string; live: boolean; deviceId: string; userId: string | null }>(
        `SELECT "id", "live", "deviceId", "userId" FROM "User" WHERE "seq" = $1 FOR UPDATE`,
        [seq],
        client,
      );
      if (!found.length) return false;
      // The events before their verdicts: a verification under way holds its event's row, so it
      // either commits first (and its record goes below) or finds no event.
      const events = await rows<{ seq: number }>(
        `DELETE FROM "Event" WHERE "userSeq" = $1 RETURNING "seq"`,
        [seq],
        client,
      );
      await rows(
        `DELETE FROM "EventVerification" WHERE "eventSeq" = ANY($1::int[])`,
        [events.map((e) => e.seq)],
        client,
      );
      await rows(`DELETE FROM "UserLocation" WHERE "userSeq" = $1`, [seq], client);
      await rows(`DELETE FROM "UserGeofence" WHERE "userSeq" = $1`, [seq], client);
      // Webhook requests carry the user's data, sent or not: they go too.
      await deleteUserOutbox(client, found[0]!.id);
      // Its trips (where it went).
      const { live, deviceId, userId } = found[0]!;
      await rows(
        userId !== null
          ? `DELETE FROM "Trip" WHERE "live" = $1 AND "userId" = $2`
          : `DELETE FROM "Trip" WHERE "live" = $1 AND "deviceId" = $2 AND "userId" IS NULL`,
        [live, userId ?? deviceId],
        client,
      );
      // And its device's logs.
      await rows(
        `DELETE FROM "DeviceLog" WHERE "live" = $1 AND "deviceId" = $2`,
        [found[0]!.live, found[0]!.deviceId],
        client,
      );
      await rows(`DELETE FROM "User" WHERE "seq" = $1`, [seq], client);
      return true;
    }),
};

export function postgresStorage(): Storage {
  // Started at once; what stamps times waits for it (clock-seed.ts).
  clockSeeded().catch(() => undefined);
  return postgres;
}

const postgres: Storage = {
  keys,
  settings,
  accounts: shared.accounts,
  sessions: shared.sessions,
  signInFailures: shared.signInFailures,
  events,
  geofences,
  users,
  tracking: postgresTracking,
  webhooks: { ...shared.webhooks, ...postgresOutbox },
  logs: shared.logs,
  retention: shared.retention,
  trips: {
    ...shared.trips,
    async activeDestination(live, owner) {
      const trip = await activeTripsGathered({ live, owner });
      if (!trip) return null;
      return {
        id: trip.id,
        externalId: trip.externalId,
        mode: trip.mode,
        latitude: trip.destinationLatitude,
        longitude: trip.destinationLongitude,
        geofenceId: trip.destinationGeofenceId,
        tag: trip.destinationGeofenceTag,
        geofenceExternalId: trip.destinationGeofenceExternalId,
      };
    },
  },
  system: postgresSystem,
  overview: postgresOverview,
};
