import { createHash, randomBytes } from "node:crypto";
import { ApiError } from "../errors";
import { storage } from "../storage";
import { type AccountView, accountView } from "./accounts";
import type { AuthKey } from "./keys";
import { verifyPassword } from "./passwords";
import { clearFailures, recordFailure, retryAfterSeconds, throttleKeys } from "./throttle";

export const SESSION_COOKIE = "session";
/** Sessions last a week from sign-in. */
export const SESSION_TTL_MS = 7 * 24 * 3600_000;

export interface SessionView {
  account: AccountView;
  /** which data the dashboard shows: live or test */
  live: boolean;
  expiresAt: Date;
}

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

/** Checks the password and opens a session; returns the cookie token. */
export async function signIn(email: string, password: string, clientAddress: string) {
  const normalized = email.trim().toLowerCase();
  const keys = throttleKeys(normalized, clientAddress);
  const wait = await retryAfterSeconds(keys);
  if (wait > 0) {
    throw new ApiError("rate_limited", `too many failed sign-ins; try again in ${wait} s`, undefined, wait);
  }
  const account = await storage().accounts.byEmail(normalized);
  // The hash is computed even for unknown emails, so timing does not tell which exist.
  const ok = await verifyPassword(password, account?.passwordHash ?? DUMMY_HASH);
  if (!account || !ok || account.disabledAt) {
    await recordFailure(keys);
    throw new ApiError("unauthorized", "wrong email or password");
  }
  await clearFailures(keys);
  const token = randomBytes(32).toString("base64url");
  const now = new Date();
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
  await storage().sessions.create({
    id: hashToken(token),
    accountId: account.id,
    live: false,
    createdAt: now,
    expiresAt,
  });
  return { token, expiresAt, account: accountView(account) };
}

const DUMMY_HASH = "scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=";

/** The session a cookie token names, if it is current and its account enabled. */
export async function sessionFromToken(token: string | undefined | null): Promise<SessionView | null> {
  if (!token) return null;
  const session = await storage().sessions.byId(hashToken(token));
  if (!session || session.expiresAt.getTime() <= Date.now()) return null;
  const account = await storage().accounts.byId(session.accountId);
  if (!account || account.disabledAt) return null;
  return { account: accountView(account), live: session.live, expiresAt: session.expiresAt };
}

export async function signOut(token: string): Promise<void> {
  await storage().sessions.delete(hashToken(token));
}

/** Switches the session between test and live data. */
export async function setSessionWorld(token: string, live: boolean): Promise<void> {
  await storage().sessions.setWorld(hashToken(token), live);
}

/**
 * The session token from a Cookie header. A value that is not a token this service could have
 * set (tokens are base64url) is no session at all, whatever else it holds.
 */
export function tokenFromCookieHeader(header: string | null): string | null {
  if (!header) return null;
  for (const part of header.split(";")) {
    const [name, ...value] = part.trim().split("=");
    if (name === SESSION_COOKIE) {
      const token = value.join("=");
      return /^[A-Za-z0-9_-]{1,128}$/.test(token) ? token : null;
    }
  }
  return null;
}

/** A session acts as a secret key of the world it has chosen (its role limits it further). */
export const sessionAuthKey = (session: SessionView): AuthKey => ({
  id: `account:${session.account.id}`,
  kind: "secret",
  live: session.live,
  role: session.account.role,
});
