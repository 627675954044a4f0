/* API keys as stored (never the key itself). */

export type KeyKind = "secret" | "publishable";

/** An API key as stored: never the key itself, only its hash and first characters. */
export interface StoredKey {
  id: string;
  kind: KeyKind;
  live: boolean;
  name: string | null;
  /** the key's first 16 characters, to recognise it */
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

export interface KeyStore {
  /** Stores a new key by its hash. */
  create(key: {
    id: string;
    kind: KeyKind;
    live: boolean;
    name: string | null;
    prefix: string;
    hash: string;
  }): Promise<StoredKey>;
  /** Every key, newest first. */
  list(): Promise<StoredKey[]>;
  /** The key with this hash (every authenticated request asks: adapters answer in microseconds). */
  byHash(hash: string): Promise<StoredKey | null>;
  /** As byHash, with the keys' version read in the same statement (what a cache may keep it under). */
  byHashWithVersion(hash: string): Promise<{ key: StoredKey | null; version: string }>;
  byId(id: string): Promise<StoredKey | null>;
  /** Marks a key revoked (once: a revoked key keeps its first revocation time). */
  revoke(id: string, at: Date): Promise<StoredKey | null>;
  /** Records that a key was used. */
  markUsed(id: string, at: Date): Promise<void>;
  /**
   * A number every change of a key (created, revoked, removed) raises in its own transaction:
   * processes that cache keys compare it to drop their cache.
   */
  version(): Promise<string>;
}
