/**
 * Storage as the domain sees it (issue 15): one async interface per concern, in the domain's
 * own types. Only adapters (server/db/<engine>/) know a driver, SQL, transactions and locks; the
 * domain gets the adapter the configuration names from `storage()` (./index.ts).
 *
 * Concerns behind the port so far: API keys, settings, accounts, sessions and the sign-in
 * throttle. The others (geofences, users, events, the tracking store) still call Prisma and the
 * SQLite adapter directly and move here one by one; the lint rule in eslint.config.mjs keeps
 * new code off them meanwhile.
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

/** A dashboard account. */
export interface StoredAccount {
  id: string;
  /** lower case */
  email: string;
  /** "admin", "analyst" or "reviewer" (server/auth/roles.ts) */
  role: string;
  /** scrypt, with its parameters and salt (server/auth/passwords.ts) */
  passwordHash: string;
  createdAt: Date;
  disabledAt: Date | null;
}

export interface AccountStore {
  /** Stores a new account; null when its email is taken (checked atomically). */
  create(account: Omit<StoredAccount, "disabledAt">): Promise<StoredAccount | null>;
  byEmail(email: string): Promise<StoredAccount | null>;
  byId(id: string): Promise<StoredAccount | null>;
  /** Oldest first. */
  list(): Promise<StoredAccount[]>;
  count(): Promise<number>;
  /** Disables an account and ends its sessions, in one change; null when there is none. */
  disable(id: string, at: Date): Promise<StoredAccount | null>;
  /** Sets a password hash, enables the account and ends its sessions; false when there is none. */
  setPassword(email: string, passwordHash: string): Promise<boolean>;
}

/** A dashboard session, by the hash of its cookie token (the token itself is never stored). */
export interface StoredSession {
  id: string;
  accountId: string;
  /** which data the dashboard shows: live or test */
  live: boolean;
  createdAt: Date;
  expiresAt: Date;
}

export interface SessionStore {
  create(session: StoredSession): Promise<void>;
  byId(id: string): Promise<StoredSession | null>;
  delete(id: string): Promise<void>;
  setWorld(id: string, live: boolean): Promise<void>;
}

/** Failed sign-ins by key ("email:…", "ip:…"), shared by every app process. */
export interface SignInFailureStore {
  /** When the `nth` most recent failure of `key` after `since` happened (1: the latest), or null. */
  nthSince(key: string, since: Date, nth: number): Promise<Date | null>;
  /** Records a failure for each key at `at`, forgetting those of the keys before `forgetBefore`. */
  record(keys: string[], at: Date, forgetBefore: Date): Promise<void>;
  clear(key: string): Promise<void>;
}

export interface Storage {
  keys: KeyStore;
  settings: SettingStore;
  accounts: AccountStore;
  sessions: SessionStore;
  signInFailures: SignInFailureStore;
}
