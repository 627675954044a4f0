import { readFileSync } from "node:fs";
import path from "node:path";
import type { OverviewView } from "../../lib/types";
import { unopenedBundles } from "../bundles/folder";
import { databaseEngine } from "../config/database-url";
import { processesAlive } from "../http/limits";
import { importList } from "../imports/view";
import { processOnce } from "../process-once";
import { storage } from "../storage";
import { hourStart } from "../storage/overview";
import { ACTIVE_STATUSES } from "../tracking/trips/model";
import { committed } from "./readiness";
import { requestWindow } from "./request-window";

/**
 * The dashboard's overview page (GET /api/overview, docs/deployment.md#overview-page): the state
 * of one world (the session's, live or test) and of the system, each figure one query whose cost
 * does not grow with the data (server/storage/overview.ts), or a reading of this process.
 */

const HOUR_MS = 3_600_000;
/** The review queue is counted up to this many events ("10,000+"). */
export const QUEUE_COUNT_UP_TO = 10_000;
/** Requests given up are counted over the requests made in this window. */
const FAILED_WINDOW_MS = 48 * HOUR_MS;
/** Recent imports shown. */
const RECENT_IMPORTS = 5;

const version = () =>
  processOnce("package-version", () => {
    try {
      return (
        JSON.parse(readFileSync(path.join(process.cwd(), "package.json"), "utf8")) as { version?: string }
      ).version;
    } catch {
      return undefined;
    }
  }) ?? "unknown";

/** The last 24 hours (the current one included), each event type's count per hour. */
async function eventsPerHour(live: boolean, now: Date) {
  const current = hourStart(now).getTime();
  const hours = Array.from({ length: 24 }, (_, i) => current - (23 - i) * HOUR_MS);
  const found = await storage().overview.eventsPerHour(live, new Date(hours[0]!));
  const byType = new Map<string, number[]>();
  for (const r of found) {
    const i = hours.indexOf(r.hour.getTime());
    if (i < 0) continue; // an hour ahead of this clock
    let counts = byType.get(r.type);
    if (!counts) byType.set(r.type, (counts = hours.map(() => 0)));
    counts[i]! += r.count;
  }
  const types = [...byType]
    .map(([type, counts]) => ({ type, counts, total: counts.reduce((a, b) => a + b, 0) }))
    .sort((a, b) => b.total - a.total || a.type.localeCompare(b.type));
  return {
    hours: hours.map((h) => new Date(h).toISOString()),
    types,
    total: types.reduce((a, t) => a + t.total, 0),
  };
}

async function webhooks(live: boolean, now: Date) {
  const { webhooks: store, overview } = storage();
  const [all, backlogs] = await Promise.all([
    store.list(),
    overview.webhookBacklogs(new Date(now.getTime() - FAILED_WINDOW_MS)),
  ]);
  const bySeq = new Map(backlogs.map((b) => [b.webhookSeq, b]));
  const list = all
    .filter((w) => w.live === live)
    .map((w) => {
      const b = bySeq.get(w.seq);
      return {
        id: w.id,
        url: w.url,
        enabled: w.enabled,
        pending: b?.pending ?? 0,
        retrying: b?.retrying ?? 0,
        failed: b?.failed ?? 0,
        /** seconds the oldest waiting request has waited: how far behind the receiver is */
        lagSeconds: b?.oldestPending ? Math.max(0, (now.getTime() - b.oldestPending.getTime()) / 1000) : 0,
      };
    });
  return {
    enabled: list.filter((w) => w.enabled).length,
    failing: list.filter((w) => w.retrying > 0 || w.failed > 0).length,
    failedWindowHours: FAILED_WINDOW_MS / HOUR_MS,
    list,
  };
}

async function system(now: Date, bundles: readonly unknown[]) {
  const [applied, processes, requests] = await Promise.all([
    storage().system.appliedMigrations(),
    processesAlive(now),
    requestWindow(),
  ]);
  const done = new Set(applied);
  const all = committed();
  return {
    version: version(),
    engine: databaseEngine(),
    migrations: {
      applied: all.filter((m) => done.has(m)).length,
      pending: all.filter((m) => !done.has(m)),
      latest: all[all.length - 1] ?? null,
    },
    bundles: { open: bundles.length, failed: unopenedBundles() },
    processes,
    /** this process's API traffic (null with METRICS=off) */
    requests,
  };
}

export async function overview(live: boolean, now = new Date()): Promise<OverviewView> {
  const store = storage().overview;
  const bundles = importList();
  const [users, events, queue, activeTrips, hooks, sys] = await Promise.all([
    store.trackedUsers(live, [new Date(now.getTime() - HOUR_MS), new Date(now.getTime() - 24 * HOUR_MS)]),
    eventsPerHour(live, now),
    store.reviewQueue(live, QUEUE_COUNT_UP_TO + 1),
    store.trips(live, ACTIVE_STATUSES),
    webhooks(live, now),
    system(now, bundles),
  ]);
  const imports = bundles
    .slice()
    .sort((a, b) => b.importedAt.localeCompare(a.importedAt))
    .slice(0, RECENT_IMPORTS)
    .map(({ name, kind, importedAt, counts, source }) => ({ name, kind, importedAt, counts, source }));
  return {
    world: live ? ("live" as const) : ("test" as const),
    at: now.toISOString(),
    users: { lastHour: users[0]!, lastDay: users[1]! },
    events,
    reviewQueue: {
      count: Math.min(queue.count, QUEUE_COUNT_UP_TO),
      more: queue.count > QUEUE_COUNT_UP_TO,
      oldestAt: queue.oldest?.toISOString() ?? null,
      ageSeconds: queue.oldest ? Math.max(0, (now.getTime() - queue.oldest.getTime()) / 1000) : null,
    },
    trips: activeTrips,
    webhooks: hooks,
    imports,
    system: sys,
  };
}
