import { prepared } from "./connection";

export interface ApiKeyRow {
  id: string;
  kind: string;
  live: boolean;
  revoked: boolean;
}

export function apiKeyByHash(hash: string): ApiKeyRow | null {
  const row = prepared(`SELECT "id", "kind", "live", "revokedAt" FROM "ApiKey" WHERE "hash" = ?`).get(
    hash,
  ) as { id: string; kind: string; live: number; revokedAt: string | null } | undefined;
  return row ? { id: row.id, kind: row.kind, live: row.live === 1, revoked: row.revokedAt !== null } : null;
}

/** A setting's stored value (read per request: a prepared lookup costs microseconds). */
export function settingValue(key: string): string | null {
  const row = prepared(`SELECT "value" FROM "Setting" WHERE "key" = ?`).get(key) as
    { value: string } | undefined;
  return row?.value ?? null;
}
