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
