/**
 * Storage as the domain sees it (issue 15): one async interface per concern, in the domain's
 * own types. Only adapters (server/db/<engine>/) know a driver, SQL, transactions and locks; the
 * domain gets the adapter the configuration names from `storage()` (./index.ts).
 *
 * Concerns behind the port so far: API keys and settings. The others (geofences, users,
 * events, accounts and sessions, the tracking store) still call Prisma and the SQLite adapter
 * directly and move here one by one; the lint rule in eslint.config.mjs keeps new code off the
 * driver meanwhile.
 */

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
  byId(id: string): Promise<StoredKey | null>;
  /** Marks a key revoked (once: a revoked key keeps its first revocation time). */
  revoke(id: string, at: Date): Promise<StoredKey | null>;
  /** Records that a key was used. */
  markUsed(id: string, at: Date): Promise<void>;
}

export interface SettingStore {
  /** A setting's stored text, or null when it was never set. */
  get(key: string): Promise<string | null>;
  /** Sets several settings in one change. */
  set(values: Record<string, string>, at: Date): Promise<void>;
}

export interface Storage {
  keys: KeyStore;
  settings: SettingStore;
}
