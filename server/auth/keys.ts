import { createHash, randomBytes } from "node:crypto";
import { newId } from "../storage/ids";
import type { KeyKind } from "../storage/keys";
import { storage } from "../storage";
import { forgetKeys, keyByHash } from "./key-cache";
import type { Role } from "./roles";
import { log } from "../log/logger.mjs";

export type { KeyKind };

/** What a request is allowed to know about the key that authenticated it. */
export interface AuthKey {
  id: string;
  kind: KeyKind;
  live: boolean;
  /** a dashboard session's role (a session acts as a secret key of its world, within its role) */
  role?: Role;
}

const KEY_PATTERN = /^prj_(test|live)_(sk|pk)_[0-9a-f]{40}$/;

export function hashKey(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

/** Creates a key and returns it in full: the only time it is ever visible. */
export async function createKey(input: { kind: KeyKind; live: boolean; name?: string }) {
  const key = `prj_${input.live ? "live" : "test"}_${input.kind === "secret" ? "sk" : "pk"}_${randomBytes(20).toString("hex")}`;
  const record = await storage().keys.create({
    id: newId(),
    kind: input.kind,
    live: input.live,
    name: input.name ?? null,
    hash: hashKey(key),
    prefix: key.slice(0, 16),
  });
  return { key, record };
}

export async function listKeys() {
  return storage().keys.list();
}

/** Revokes by record id or by the full key; returns the revoked record, or null. */
export async function revokeKey(idOrKey: string) {
  const keys = storage().keys;
  const found = KEY_PATTERN.test(idOrKey) ? await keys.byHash(hashKey(idOrKey)) : await keys.byId(idOrKey);
  const revoked = found ? await keys.revoke(found.id, new Date()) : null;
  // This thread refuses it at once; the others within a second (./key-cache.ts).
  forgetKeys();
  return revoked;
}

/** lastUsedAt is written at most once a minute per key, so reads do not turn into writes. */
const LAST_USED_EVERY_MS = 60_000;
const lastUsedWritten = new Map<string, number>();

/**
 * The key named by an Authorization header value ("<key>" or "Bearer <key>"), or null.
 * `beforeLookup` runs before a key this thread does not know is looked up in the database (a
 * rate limit may refuse it there).
 */
export async function authenticate(
  header: string | null,
  beforeLookup?: () => Promise<void>,
): Promise<AuthKey | null> {
  if (!header) return null;
  const key = header.replace(/^Bearer\s+/i, "").trim();
  if (!KEY_PATTERN.test(key)) return null;
  const record = await keyByHash(hashKey(key), beforeLookup);
  if (!record || record.revokedAt) return null;
  const now = Date.now();
  if (now - (lastUsedWritten.get(record.id) ?? 0) > LAST_USED_EVERY_MS) {
    lastUsedWritten.set(record.id, now);
    storage()
      .keys.markUsed(record.id, new Date(now))
      .catch((err: unknown) => {
        // Recorded at the key's next use, not a minute later.
        if (lastUsedWritten.get(record.id) === now) lastUsedWritten.delete(record.id);
        log.error({ err, keyId: record.id }, "could not record a key's use");
      });
  }
  return { id: record.id, kind: record.kind, live: record.live };
}
