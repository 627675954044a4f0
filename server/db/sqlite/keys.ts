import type { KeyKind, KeyStore, StoredKey } from "../../storage/keys";
import { prepared, rowDate } from "./connection";
import { shared } from "./shared-stores";

/** API keys: the key check's reads are prepared statements (microseconds); writes through Prisma. */

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

export const sqliteKeys: KeyStore = {
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
