import { unopenedBundles } from "../bundles/folder";
import { committedMigrations } from "../db/migrations";
import { processOnce } from "../process-once";
import { storage } from "../storage";
import { SLOT, beatAge } from "../workers/thread-memory";

/**
 * Whether this app process may be sent traffic (GET /readyz, docs/deployment.md#probes): its
 * database answers and has applied every migration of this release, every bundle of the geodata
 * folder is open, and its tracking thread and webhook sender's thread are alive (they beat every
 * second; a thread that exited or whose event loop is stuck does not).
 */

export interface Check {
  name: "database" | "migrations" | "bundles" | "trackingThread" | "webhookSender";
  ok: boolean;
  /** what is wrong, when it is */
  message?: string;
}

/** A thread that has not beaten for this long is not alive. */
const STALE_S = 5;

function thread(name: Check["name"], age: number | null, what: string): Check {
  if (age === null) return { name, ok: false, message: `the ${what} has not started yet` };
  if (age > STALE_S) return { name, ok: false, message: `the ${what} has not answered for ${age} s` };
  return { name, ok: true };
}

/** The migrations of this release, read once (they change only with the release). */
export const committed = () => processOnce("committed-migrations", () => committedMigrations());

async function databaseChecks(): Promise<Check[]> {
  let applied: string[];
  try {
    applied = await storage().system.appliedMigrations();
  } catch (e) {
    const message = `the database cannot be read: ${(e as Error).message.split("\n")[0]}`;
    return [
      { name: "database", ok: false, message },
      { name: "migrations", ok: false, message: "unknown: the database cannot be read" },
    ];
  }
  const done = new Set(applied);
  const pending = committed().filter((m) => !done.has(m));
  return [
    { name: "database", ok: true },
    pending.length
      ? {
          name: "migrations",
          ok: false,
          message: `${pending.length} migration${pending.length === 1 ? "" : "s"} not applied (${pending.join(", ")}): run npm start or npm run db:migrate`,
        }
      : { name: "migrations", ok: true },
  ];
}

export async function readiness(): Promise<{ ready: boolean; checks: Check[] }> {
  const failed = unopenedBundles();
  const checks: Check[] = [
    ...(await databaseChecks()),
    failed.length
      ? {
          name: "bundles",
          ok: false,
          message: failed.map((f) => `${f.name} cannot be opened: ${f.reason}`).join("; "),
        }
      : { name: "bundles", ok: true },
    thread("trackingThread", beatAge(SLOT.trackingBeat), "tracking thread"),
    thread("webhookSender", beatAge(SLOT.senderBeat), "webhook sender's thread"),
  ];
  return { ready: checks.every((c) => c.ok), checks };
}
