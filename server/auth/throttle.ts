import { prisma } from "../db/client";
import { withWriteLock } from "../db/write-lock";

/**
 * Failed sign-ins are throttled per email (5 within 15 minutes) and per client address (50, so
 * one address cannot try many accounts): past that, attempts are refused (429, with
 * Retry-After) until the window has moved on. A success clears the email's count. The counts
 * are rows in the database, so several app processes behind a balancer share them.
 */

const WINDOW_MS = 15 * 60_000;
const maxFailures = (key: string) => (key.startsWith("email:") ? 5 : 50);

/** Seconds until another attempt is allowed for these keys, or 0 when one is allowed now. */
export async function retryAfterSeconds(keys: string[], now = Date.now()): Promise<number> {
  let wait = 0;
  for (const key of keys) {
    const max = maxFailures(key);
    // The max-th most recent failure in the window: once it is older than the window, one more is allowed.
    const blocking = await prisma.signInFailure.findMany({
      where: { key, at: { gt: new Date(now - WINDOW_MS) } },
      orderBy: { at: "desc" },
      skip: max - 1,
      take: 1,
      select: { at: true },
    });
    if (blocking[0]) wait = Math.max(wait, blocking[0].at.getTime() + WINDOW_MS - now);
  }
  return Math.ceil(wait / 1000);
}

export async function recordFailure(keys: string[], now = Date.now()): Promise<void> {
  await withWriteLock(() =>
    prisma.$transaction([
      // Failures older than the window count for nothing: they go as new ones come.
      prisma.signInFailure.deleteMany({
        where: { key: { in: keys }, at: { lte: new Date(now - WINDOW_MS) } },
      }),
      prisma.signInFailure.createMany({ data: keys.map((key) => ({ key, at: new Date(now) })) }),
    ]),
  );
}

export async function clearFailures(key: string): Promise<void> {
  await withWriteLock(() => prisma.signInFailure.deleteMany({ where: { key } }));
}
