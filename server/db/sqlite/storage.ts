import type { StoredKey, KeyKind, KeyStore } from "../../storage/keys";
import type { ConversionDay, EventStore } from "../../storage/events";
import type { GeofenceStore } from "../../storage/geofences";
import type { SettingStore } from "../../storage/settings";
import type { Storage } from "../../storage/port";
import type { UserStore } from "../../storage/users";
import { prismaStores } from "../prisma-stores";
import { withWriteLock } from "../write-lock";
import { prepared, sqlDate, transaction, rowDate } from "./connection";
import { processOnce } from "../../process-once";
import { SqliteGeofenceIndex } from "./geofence-index";
import { sqliteOutbox } from "./outbox";
import {
  deleteUserEverything,
  geofencesBySeqs,
  membersOfGeofence,
  removeMembership,
  userSeqsInBox,
  verificationCountsOf,
} from "./tracking";
import { sqliteTracking } from "./tracking-store";
import { sqliteOverview } from "./overview";
import { sqliteSystem } from "./system";
import { activeDestination } from "./trips";
import { userByInstallId, userSeqsInGeofence } from "./users";

/**
 * The SQLite adapter of the storage port (server/storage/port.ts). Reads on the request path
 * use prepared better-sqlite3 statements (microseconds); writes go through Prisma
 * (../prisma-stores.ts) under the process's write lock, which stays inside this adapter.
 */

interface KeyRow {
  id: string;
  kind: string;
  live: number;
  name: string | null;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

const shared = prismaStores(withWriteLock);

const keyOf = (row: KeyRow | undefined): StoredKey | null =>
  row
    ? {
        id: row.id,
        kind: row.kind as KeyKind,
        live: row.live === 1,
        name: row.name,
        prefix: row.prefix,
        createdAt: new Date(row.createdAt),
        lastUsedAt: rowDate(row.lastUsedAt),
        revokedAt: rowDate(row.revokedAt),
      }
    : null;

const KEY_COLUMNS = `"id", "kind", "live", "name", "prefix", "createdAt", "lastUsedAt", "revokedAt"`;
const KEY_VERSION = `(SELECT "version" FROM "KeyVersion" WHERE "id" = 1)`;

const keys: KeyStore = {
  ...shared.keys,
  async byHash(hash) {
    return keyOf(
      prepared(`SELECT ${KEY_COLUMNS} FROM "ApiKey" WHERE "hash" = ?`).get(hash) as KeyRow | undefined,
    );
  },
  async byHashWithVersion(hash) {
    // One statement: the key and the version it was read at.
    const row = prepared(
      `SELECT ${KEY_VERSION} AS "version", k.* FROM (SELECT 1) LEFT JOIN
         (SELECT ${KEY_COLUMNS} FROM "ApiKey" WHERE "hash" = ?) k`,
    ).get(hash) as KeyRow & { version: number };
    return { key: row.id ? keyOf(row) : null, version: String(row.version) };
  },
  async version() {
    return String(prepared(`SELECT ${KEY_VERSION}`).pluck().get());
  },
};

const settings: SettingStore = {
  async get(key) {
    const row = prepared(`SELECT "value" FROM "Setting" WHERE "key" = ?`).get(key) as
      { value: string } | undefined;
    return row?.value ?? null;
  },
  set: shared.settings.set,
};

const events: EventStore = {
  ...shared.events,
  async verificationCounts(live, subject, type, band) {
    return verificationCountsOf(live, [{ subject, type, band }])[0]!;
  },
  // createdAt is stored as ISO text in UTC: its first ten characters are the day.
  async conversionsPerDay(live, since) {
    return prepared(
      `SELECT substr("createdAt", 1, 10) AS "day", "type" AS "name", COUNT(*) AS "count",
         COALESCE(SUM(json_extract("metadata", '$.revenue')), 0) AS "revenue"
       FROM "Event" WHERE "live" = ? AND "createdAt" >= ? AND "type" NOT LIKE 'user.%'
       GROUP BY 1, 2 ORDER BY 1, 2`,
    ).all(live ? 1 : 0, sqlDate(since)) as ConversionDay[];
  },
};

const geofences: GeofenceStore = {
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

const users: UserStore = {
  ...shared.users,
  seqsInGeofence: async (geofenceSeq, q) => userSeqsInGeofence(geofenceSeq, q),
  byInstallId: async (live, installId) => userByInstallId(live, installId),
  inBox: async (live, box, metadata) => userSeqsInBox(live, box, metadata),
  deleteEverything: (seq) => withWriteLock(() => transaction(() => deleteUserEverything(seq))),
};

export const sqliteStorage: Storage = {
  keys,
  settings,
  accounts: shared.accounts,
  sessions: shared.sessions,
  signInFailures: shared.signInFailures,
  events,
  geofences,
  users,
  tracking: sqliteTracking,
  webhooks: { ...shared.webhooks, ...sqliteOutbox },
  logs: shared.logs,
  retention: shared.retention,
  trips: { ...shared.trips, activeDestination: async (live, owner) => activeDestination(live, owner) },
  system: sqliteSystem,
  overview: sqliteOverview,
};
