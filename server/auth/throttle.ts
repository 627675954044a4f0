/**
 * Failed sign-ins are throttled per email (5 within 15 minutes) and per client address (50, so
 * one address cannot try many accounts): past that, attempts are refused (429, with
 * Retry-After) until the window has moved on. A success clears the email's count. Counts live
 * in this process: one server, one count.
 */

const WINDOW_MS = 15 * 60_000;
const maxFailures = (key: string) => (key.startsWith("email:") ? 5 : 50);

const shared = globalThis as unknown as { signInFailures?: Map<string, number[]> };
const failures = (shared.signInFailures ??= new Map<string, number[]>());

function recent(key: string, now: number): number[] {
  const times = (failures.get(key) ?? []).filter((t) => now - t < WINDOW_MS);
  if (times.length) failures.set(key, times);
  else failures.delete(key);
  return times;
}

/** Seconds until another attempt is allowed for these keys, or 0 when one is allowed now. */
export function retryAfterSeconds(keys: string[], now = Date.now()): number {
  let wait = 0;
  for (const key of keys) {
    const times = recent(key, now);
    const max = maxFailures(key);
    if (times.length >= max) wait = Math.max(wait, times[times.length - max]! + WINDOW_MS - now);
  }
  return Math.ceil(wait / 1000);
}

export function recordFailure(keys: string[], now = Date.now()): void {
  for (const key of keys) failures.set(key, [...recent(key, now), now]);
}

export function clearFailures(key: string): void {
  failures.delete(key);
}
