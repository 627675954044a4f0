import { storage } from "../storage";

/**
 * Failed sign-ins are throttled per (account, client address), with a backoff: the first
 * FREE_TRIES failures within WINDOW_MS cost nothing, each one after them doubles the wait before
 * the next attempt from that address (2 s, 4 s, 8 s… up to the window). Someone elsewhere cannot
 * lock an account: their failures count for their address only. An address is also held to
 * PER_ADDRESS failures in the window across all accounts (one address cannot try many). A success
 * clears its (account, address) count. The counts are kept by the storage port, so several app
 * processes on one database share them.
 */

const WINDOW_MS = 15 * 60_000;
const FREE_TRIES = 4;
/** 2^10 s: about the window. */
const MOST_DOUBLINGS = 10;
const PER_ADDRESS = 50;

/** The keys a sign-in attempt is counted under. */
export function throttleKeys(email: string, address: string) {
  return { pair: `account:${email}|ip:${address}`, address: `ip:${address}` };
}

/** Seconds until another attempt is allowed, or 0 when one is allowed now. */
export async function retryAfterSeconds(
  keys: ReturnType<typeof throttleKeys>,
  now = Date.now(),
): Promise<number> {
  const since = new Date(now - WINDOW_MS);
  const failures = storage().signInFailures;
  let wait = 0;
  // The n-th most recent failure past the free ones holds the next attempt 2^(n - FREE_TRIES) s.
  for (let n = FREE_TRIES + 1; n <= FREE_TRIES + 1 + MOST_DOUBLINGS; n++) {
    const at = await failures.nthSince(keys.pair, since, n);
    if (!at) break;
    wait = Math.max(wait, at.getTime() + 1000 * 2 ** (n - FREE_TRIES) - now);
  }
  // The PER_ADDRESS-th most recent failure of the address: once it leaves the window, one more.
  const blocking = await failures.nthSince(keys.address, since, PER_ADDRESS);
  if (blocking) wait = Math.max(wait, blocking.getTime() + WINDOW_MS - now);
  return Math.ceil(wait / 1000);
}

export async function recordFailure(keys: ReturnType<typeof throttleKeys>, now = Date.now()): Promise<void> {
  // Failures older than the window count for nothing: they go as new ones come.
  await storage().signInFailures.record([keys.pair, keys.address], new Date(now), new Date(now - WINDOW_MS));
}

export async function clearFailures(keys: ReturnType<typeof throttleKeys>): Promise<void> {
  await storage().signInFailures.clear(keys.pair);
}
