import { processOnce } from "../process-once";
import type { StoredKey } from "../storage/keys";
import { storage } from "../storage";
import { metrics } from "../metrics/metrics.mjs";

/**
 * The keys a process has seen, so that a request is authenticated without a database round trip
 * (docs/deployment.md#keys): a revocation is refused everywhere within a second. Each thread
 * looks at the keys' version (a number every key change raises in its own transaction: one small
 * read) at most every CHECK_MS and drops what it keeps when it changed; a revocation made by this
 * thread drops it at once. A key is kept only when it was read at the version the thread holds (a
 * key read before a revocation is never kept after the thread saw it). Unknown keys are not kept
 * (a key just created works at once).
 */

const CHECK_MS = 250;
/** The most keys kept (a deployment has tens); beyond, the oldest seen are dropped. */
const MOST = 10_000;

const state = processOnce("key-cache", () => ({
  keys: new Map<string, StoredKey>(),
  version: "",
  checkedAt: 0,
  /** the version read in flight, shared by the requests that arrive meanwhile */
  checking: undefined as Promise<void> | undefined,
}));

async function check(): Promise<void> {
  const version = await storage().keys.version();
  if (version !== state.version) {
    state.keys.clear();
    state.version = version;
  }
  state.checkedAt = Date.now();
}

/** The key with this hash, from this thread's cache when the keys have not changed since. */
export async function keyByHash(hash: string, beforeLookup?: () => Promise<void>): Promise<StoredKey | null> {
  if (Date.now() - state.checkedAt >= CHECK_MS) {
    state.checking ??= check().finally(() => (state.checking = undefined));
    await state.checking;
  }
  const kept = state.keys.get(hash);
  if (kept) {
    metrics.keyCacheHits.inc();
    return kept;
  }
  metrics.keyCacheMisses.inc();
  await beforeLookup?.();
  const { key: found, version } = await storage().keys.byHashWithVersion(hash);
  if (found && version === state.version) {
    if (state.keys.size >= MOST) state.keys.delete(state.keys.keys().next().value!);
    state.keys.set(hash, found);
  }
  return found;
}

/** Drops what this thread keeps (it revoked a key). */
export function forgetKeys(): void {
  state.keys.clear();
  state.checkedAt = 0;
}
