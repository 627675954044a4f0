/* Dashboard accounts, their sessions and the sign-in throttle. */

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
  /**
   * Changes an account's role and/or whether it is disabled (disabling ends its sessions), in one
   * change that is refused ("last_admin") when no enabled admin would be left; "not_found" when
   * there is no such account.
   */
  change(
    id: string,
    change: { role?: string; disabledAt?: Date | null },
  ): Promise<StoredAccount | "not_found" | "last_admin">;
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
