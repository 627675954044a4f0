import { createHash, randomBytes } from "node:crypto";
import { prisma } from "../db/client";
import { apiKeyByHash } from "../db/sqlite/keys";
import { newId } from "../db/ids";
import { withWriteLock } from "../db/write-lock";

export type KeyKind = "secret" | "publishable";

/** What a request is allowed to know about the key that authenticated it. */
export interface AuthKey {
  id: string;
  kind: KeyKind;
  live: boolean;
}

const KEY_PATTERN = /^prj_(test|live)_(sk|pk)_[0-9a-f]{40}$/;

export function hashKey(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

/** Creates a key and returns it in full: the only time it is ever visible. */
export async function createKey(input: { kind: KeyKind; live: boolean; name?: string }) {
  const key = `prj_${input.live ? "live" : "test"}_${input.kind === "secret" ? "sk" : "pk"}_${randomBytes(20).toString("hex")}`;
  const record = await prisma.apiKey.create({
    data: {
      id: newId(),
      kind: input.kind,
      live: input.live,
      name: input.name ?? null,
      hash: hashKey(key),
      prefix: key.slice(0, 16),
    },
  });
  return { key, record };
}

export async function listKeys() {
  return prisma.apiKey.findMany({ orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
}

/** Revokes by record id or by the full key; returns the revoked record, or null. */
export async function revokeKey(idOrKey: string) {
  const where = KEY_PATTERN.test(idOrKey) ? { hash: hashKey(idOrKey) } : { id: idOrKey };
  const found = await prisma.apiKey.findUnique({ where });
  if (!found) return null;
  if (found.revokedAt) return found;
  return prisma.apiKey.update({ where: { id: found.id }, data: { revokedAt: new Date() } });
}

/** lastUsedAt is written at most once a minute per key, so reads do not turn into writes. */
const LAST_USED_EVERY_MS = 60_000;
const lastUsedWritten = new Map<string, number>();

/** The key named by an Authorization header value ("<key>" or "Bearer <key>"), or null. */
export async function authenticate(header: string | null): Promise<AuthKey | null> {
  if (!header) return null;
  const key = header.replace(/^Bearer\s+/i, "").trim();
  if (!KEY_PATTERN.test(key)) return null;
  const record = apiKeyByHash(hashKey(key));
  if (!record || record.revoked) return null;
  const now = Date.now();
  if (now - (lastUsedWritten.get(record.id) ?? 0) > LAST_USED_EVERY_MS) {
    lastUsedWritten.set(record.id, now);
    withWriteLock(() =>
      prisma.apiKey.update({ where: { id: record.id }, data: { lastUsedAt: new Date(now) } }),
    ).catch((e: unknown) => console.error("could not record key use", e));
  }
  return { id: record.id, kind: record.kind as KeyKind, live: record.live };
}
