import type { listKeys } from "./keys";

type KeyRow = Awaited<ReturnType<typeof listKeys>>[number];

/** A key as the dashboard shows it: never the key itself, which is not stored. */
export const keyView = (k: KeyRow) => ({
  id: k.id,
  kind: k.kind,
  live: k.live,
  name: k.name,
  prefix: k.prefix,
  createdAt: k.createdAt.toISOString(),
  lastUsedAt: k.lastUsedAt?.toISOString() ?? null,
  revokedAt: k.revokedAt?.toISOString() ?? null,
});
