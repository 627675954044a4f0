import { storage } from "../storage";

/**
 * Failed sign-ins are throttled per email (5 within 15 minutes) and per client address (50, so
 * one address cannot try many accounts): past that, attempts are refused (429, with
 * Retry-After) until the window has moved on. A success clears the email's count. The counts
 * are kept by the storage port, so several app processes on one database share them.
 */

const WINDOW_MS = 15 * 60_000;
const maxFailures = (key: string) => (key.startsWith("email:") ? 5 : 50);

/** Seconds until another attempt is allowed for these keys, or 0 when one is allowed now. */
export async function retryAfterSeconds(keys: string[], now = Date.now()): Promise<number> {
  let wait = 0;
  for (const key of keys) {
    // The max-th most recent failure in the window: once it is older than the window, one more is allowed.
    const blocking = await storage().signInFailures.nthSince(
      key,
      new Date(now - WINDOW_MS),
      maxFailures(key),
    );
    if (blocking) wait = Math.max(wait, blocking.getTime() + WINDOW_MS - now);
  }
  return Math.ceil(wait / 1000);
}

export async function recordFailure(keys: string[], now = Date.now()): Promise<void> {
  // Failures older than the window count for nothing: they go as new ones come.
  await storage().signInFailures.record(keys, new Date(now), new Date(now - WINDOW_MS));
}

export async function clearFailures(key: string): Promise<void> {
  await storage().signInFailures.clear(key);
}
