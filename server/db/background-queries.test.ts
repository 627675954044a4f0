import Database from "better-sqlite3";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { applyMigrations } from "./sqlite/migrations-fixture";

/**
 * What every app process runs on its own in the background (the webhook sender's turn every
 * 50 ms, the geofence expiry sweep each second, retention and trip expiry each minute) must read
 * by index: a statement that walks a whole table costs in proportion to the data, again and
 * again, on every process, beside tracking (the sweep's query once read all 10,000 geofences of
 * the dense bench every second). The overview page's figures, which every open dashboard asks for
 * every 15 s, are held to the same. Each statement these loops send to SQLite is caught as it is
 * prepared and its plan read.
 */

/**
 * Tables that grow with the data. A small one may be scanned: keys, settings, webhooks, and the
 * webhook outbox, which holds only the rows in flight (each is split into its queues within a
 * turn or two).
 */
const GROWING = [
  "Geofence",
  "User",
  "UserGeofence",
  "UserLocation",
  "Event",
  "DeviceLog",
  "Trip",
  "WebhookDelivery",
  "WebhookQueue",
  "EventCount",
  "UserCount",
];

describe("background work on SQLite", () => {
  let file = "";
  const prepared: string[] = [];

  beforeAll(() => {
    file = path.join(mkdtempSync(path.join(os.tmpdir(), "background-")), "location.db");
    const db = new Database(file);
    applyMigrations(db);
    db.pragma("journal_mode = WAL");
    db.close();
    process.env.DATABASE_URL = `file:${file}`;
    // Prisma's SQLite adapter and the project's own statements both prepare through this.
    const prepare = Database.prototype.prepare;
    Database.prototype.prepare = function (this: Database.Database, sql: string) {
      prepared.push(sql);
      return prepare.call(this, sql);
    } as typeof prepare;
  });

  /** The plan's lines for each statement `work` prepares that walk a growing table. */
  async function fullScans(work: () => Promise<unknown>): Promise<string[]> {
    prepared.length = 0;
    await work();
    expect(prepared.length).toBeGreaterThan(0);
    const db = new Database(file, { readonly: true });
    try {
      // Reading the first rows of a table in key order, with no condition, stops at its LIMIT.
      const firstRows = /WHERE 1=1 ORDER BY `main`\.`\w+`\.`seq` ASC LIMIT \?/;
      return prepared.flatMap((sql) => {
        if (firstRows.test(sql)) return [];
        // Planned, not run: every parameter may be null.
        const nulls = Array.from(sql.matchAll(/\?/g), () => null);
        const plan = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...nulls) as { detail: string }[];
        return plan
          .map((p) => p.detail)
          .filter((d) => GROWING.some((t) => new RegExp(`^SCAN (main\\.)?"?${t}"?( AS \\w+)?$`).test(d)))
          .map((d) => `${d}: ${sql}`);
      });
    } finally {
      db.close();
    }
  }

  it("the geofence expiry sweep reads due geofences by their disableAfter and deleteAfter indexes", async () => {
    const { sweepGeofences } = await import("../geofences/expiry");
    expect(await fullScans(() => sweepGeofences(new Date()))).toEqual([]);
  });

  it("retention and trip expiry read by index", async () => {
    const { pruneOnce } = await import("../tracking/retention");
    expect(await fullScans(() => pruneOnce())).toEqual([]);
  });

  it("the overview page's figures read by index (every dashboard polls them)", async () => {
    const { storage } = await import("../storage");
    const { overview, webhooks } = storage();
    const day = new Date(Date.now() - 86_400_000);
    const figures = () =>
      Promise.all([
        overview.trackedUsers(true, [new Date(Date.now() - 3_600_000), day]),
        overview.eventsPerHour(true, day),
        overview.reviewQueue(true, 10_001),
        overview.trips(true, ["started", "approaching", "arrived"]),
        overview.webhookBacklogs(day),
        webhooks.sendersAlive(new Date()),
        overview.pruneCounts(day),
      ]);
    expect(await fullScans(figures)).toEqual([]);
  });

  it("the webhook sender's turn and its pruning read by index", async () => {
    const { storage } = await import("../storage");
    const now = new Date();
    const turn = () =>
      storage().webhooks.turn({
        owner: "background-test",
        done: [],
        written: [],
        resolved: [],
        known: new Set(),
        now,
        holdUntil: new Date(now.getTime() + 30_000),
        total: 10,
        room: () => 10,
        orphans: true,
        aliveUntil: new Date(now.getTime() + 15_000),
        split: () => [],
      });
    expect(await fullScans(turn)).toEqual([]);
    expect(await fullScans(() => storage().webhooks.prune(now, 100))).toEqual([]);
  });
});
