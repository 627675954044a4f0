import type { KeyKind, KeyStore, StoredKey } from "../../storage/keys";
import { shared } from "./shared-stores";
import { row } from "./sql";

const KEY_COLUMNS = `"id", "kind", "live", "name", "prefix", "createdAt", "lastUsedAt", "revokedAt"`;
const KEY_VERSION = `(SELECT "version"::text FROM "KeyVersion" WHERE "id" = 1)`;
type KeyRow = Omit<StoredKey, "kind"> & { kind: string };

export const postgresKeys: KeyStore = {
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
