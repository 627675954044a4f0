import Database from "better-sqlite3";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SenderTurn, WebhookStore } from "../../storage/webhooks";
import type { AttemptOutcome, ClaimedDelivery, DeliveryWrite } from "../../storage/webhook-records";
import { Sender } from "../../webhooks/deliver";
import { requestId, splitOutbox } from "../../webhooks/outbox";
import { processKey } from "../../workers/thread-memory";
import { applyMigrations } from "./migrations-fixture";

/**
 * The SQLite outbox on a database of its own (the migrations applied), without HTTP: what only
 * this engine's rows show (a queue's count set right, tracking's rows split, a sender's own rows).
 * What every engine's queues must do is the store contract's (tests/store-contract/webhooks.ts).
 */

let dir: string;
let outbox: typeof import("./webhooks");
let db: Database.Database;
const now = new Date("2026-11-25T12:00:00Z");
const later = (ms: number) => new Date(now.getTime() + ms);
const HOLD = later(30_000);

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "outbox-"));
  const file = path.join(dir, "test.db");
  db = new Database(file);
  applyMigrations(db);
  process.env.DATABASE_URL = `file:${file}`;
  outbox = await import("./webhooks");
  for (const [seq, enabled] of [
    [1, 1],
    [2, 1],
    [3, 0],
  ])
    db.prepare(
      `INSERT INTO "Webhook" ("seq", "id", "live", "url", "mode", "enabled", "token", "createdAt", "updatedAt")
       VALUES (?, ?, 0, 'http://example.com/', 'single', ?, 'k', ?, ?)`,
    ).run(seq, `w${seq}`, enabled, now.toISOString(), now.toISOString());
});
afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

let n = 0;
function owe(webhookSeq: number, userId: string, count = 1): DeliveryWrite[] {
  return Array.from({ length: count }, () => {
    const id = `d${++n}`;
    return {
      id,
      webhookSeq,
      live: false,
      userId,
      types: "user.entered_geofence",
      eventIds: `e${n}`,
      body: `{"n":${n}}`,
      nextAttemptAt: now,
      createdAt: now,
    };
  });
}
const write = (d: DeliveryWrite[]) => db.transaction(() => outbox.writeOutbox(d))();
const noSplit = () => [];
const turn = (t: Partial<SenderTurn>) =>
  outbox.sqliteOutbox.turn({
    owner: "test-sender",
    done: [],
    written: [],
    resolved: [],
    known: new Set(),
    now,
    holdUntil: HOLD,
    total: 64,
    room: () => 32,
    orphans: true,
    aliveUntil: null,
    split: noSplit,
    ...t,
  });
const claim = async (at = now, total = 64, room = () => 32, split: SenderTurn["split"] = noSplit) =>
  (await turn({ now: at, total, room, split })).claimed;
const finish = (d: ClaimedDelivery, outcome: AttemptOutcome, at = now) =>
  turn({ done: [{ delivery: d, at, outcome }], now: at, total: 0, room: () => 0 });
const ok: AttemptOutcome = { delivered: true, status: 200 };
const refused = (retryAt: Date | null): AttemptOutcome => ({
  delivered: false,
  status: 500,
  error: "HTTP 500",
  retryAt,
});
const queue = (w: number, u: string) =>
  db
    .prepare(
      `SELECT "pending", "nextAttemptAt", "lockedUntil" FROM "WebhookQueue" WHERE "webhookSeq" = ? AND "userId" = ?`,
    )
    .get(w, u) as { pending: number; nextAttemptAt: string | null; lockedUntil: string | null } | undefined;
const clear = () =>
  db.exec(`DELETE FROM "WebhookDelivery"; DELETE FROM "WebhookQueue"; DELETE FROM "WebhookOutbox"`);

describe("the SQLite outbox", () => {
  it("sets right a queue that counts requests it no longer has", async () => {
    clear();
    write(owe(1, "gone", 2));
    db.exec(`DELETE FROM "WebhookDelivery" WHERE "userId" = 'gone'`);
    expect(await claim()).toEqual([]);
    expect(queue(1, "gone")).toEqual({ pending: 0, nextAttemptAt: null, lockedUntil: null });
    // A new request makes it due again.
    write(owe(1, "gone"));
    expect((await claim()).length).toBe(1);
  });

  it("splits tracking's rows into requests in the order written, for webhooks that still exist", async () => {
    clear();
    const row = (i: number) => ({
      live: false,
      userId: "split",
      // webhook 9 was deleted after the events were made
      targets: [
        { seq: 1, mode: "single" as const, types: null },
        { seq: 9, mode: "single" as const, types: null },
      ],
      events: [0, 1].map((k) => ({
        id: `ev${i}.${k}`,
        type: "user.entered_geofence",
        wire: { _id: `ev${i}.${k}` },
      })),
      user: { _id: "split" },
      createdAt: later(i),
    });
    db.transaction(() => [1, 2, 3].forEach((i) => outbox.writeOutboxRow(row(i))))();
    let id = 0;
    const split: SenderTurn["split"] = (r, webhooks) => splitOutbox(r, webhooks, now, () => `s${++id}`);
    const [first] = await claim(now, 64, () => 32, split);
    expect(db.prepare(`SELECT count(*) FROM "WebhookOutbox"`).pluck().get()).toBe(0);
    expect(first).toMatchObject({ webhookSeq: 1, eventIds: "ev1.0", createdAt: later(1) });
    expect(JSON.parse(first!.body)).toEqual({ event: { _id: "ev1.0" }, user: { _id: "split" } });
    expect(queue(1, "split")).toMatchObject({ pending: 6 });
    const order = db
      .prepare(`SELECT "eventIds" FROM "WebhookDelivery" WHERE "userId" = 'split' ORDER BY "seq"`)
      .pluck()
      .all();
    expect(order).toEqual(["ev1.0", "ev1.1", "ev2.0", "ev2.1", "ev3.0", "ev3.1"]);
    // Deleting the user takes a row not yet split with it (it carries the user's data).
    db.transaction(() => outbox.writeOutboxRow(row(4)))();
    db.transaction(() => outbox.deleteUserOutbox("split"))();
    const left = db.prepare(`SELECT count(*) FROM "WebhookOutbox"`).pluck().get();
    expect([left, queue(1, "split")]).toEqual([0, undefined]);
  });

  it("removes finished requests older than the cutoff, never pending ones", async () => {
    clear();
    write(owe(1, "old", 3));
    const [d] = await claim();
    await finish(d!, ok);
    db.prepare(`INSERT INTO "WebhookSender" ("owner", "aliveUntil") VALUES ('long-gone', ?)`).run(
      now.toISOString(),
    );
    expect(await outbox.sqliteOutbox.prune(later(1), 100)).toBe(1);
    // A sender not alive since the cutoff is forgotten with the records.
    expect(db.prepare(`SELECT count(*) FROM "WebhookSender" WHERE "owner" = 'long-gone'`).pluck().get()).toBe(
      0,
    );
    expect(await outbox.sqliteOutbox.prune(later(1), 100)).toBe(0);
    const left = db.prepare(`SELECT count(*) FROM "WebhookDelivery" WHERE "userId" = 'old'`).pluck().get();
    expect(left).toBe(2);
  });

  describe("a sender's own rows", () => {
    const me = () => processKey();
    const ownRow = (userId: string, other?: string) => {
      const row = {
        live: false,
        userId,
        targets: [{ seq: 1, mode: "single" as const, types: null }],
        events: [{ id: `ev-${userId}-${++n}`, type: "user.entered_geofence", wire: { _id: `ev${n}` } }],
        user: { _id: userId },
        createdAt: now,
      };
      db.transaction(() => outbox.writeOutboxRow(row))();
      const seq = db.prepare(`SELECT max("seq") FROM "WebhookOutbox"`).pluck().get() as number;
      if (other) db.prepare(`UPDATE "WebhookOutbox" SET "owner" = ? WHERE "seq" = ?`).run(other, seq);
      return seq;
    };
    const alive = (owner: string, until: Date) =>
      db
        .prepare(
          `INSERT INTO "WebhookSender" ("owner", "aliveUntil") VALUES (?, ?)
           ON CONFLICT ("owner") DO UPDATE SET "aliveUntil" = excluded."aliveUntil"`,
        )
        .run(owner, until.toISOString().replace("Z", "+00:00"));
    const mine = (known = new Set<number>()) => turn({ owner: me(), known, total: 0, orphans: false });

    it("are handed out in order, each once, after their user's rows of another sender", async () => {
      clear();
      alive("other", later(60_000));
      const r0 = ownRow("c", "other");
      const [r1, r2, r3, r4] = [ownRow("a"), ownRow("b"), ownRow("a"), ownRow("c")];
      db.prepare(
        `INSERT INTO "WebhookQueue" ("webhookSeq", "userId", "pending", "nextAttemptAt") VALUES (1, 'b', 1, ?)`,
      ).run(later(5000).toISOString());
      const first = await mine();
      // r3 follows r1 (handed out before it); r4 waits for the other sender's r0.
      expect(first.rows.map((r) => [r.seq, r.busy])).toEqual([
        [r1, []],
        [r2, [1]],
        [r3, []],
      ]);
      expect(JSON.parse(first.rows[0]!.userJson)).toEqual({ _id: "a" });
      expect((await mine(new Set([r1!, r2!, r3!]))).rows).toEqual([]);
      db.prepare(`DELETE FROM "WebhookOutbox" WHERE "seq" = ?`).run(r0);
      const next = await mine(new Set([r1!, r2!, r3!]));
      expect(next.rows.map((r) => r.seq)).toEqual([r4]);
    });

    it("write their requests in order, only while the row is there, once, and go when resolved", async () => {
      clear();
      const row = ownRow("w");
      const gone = ownRow("w-gone");
      db.prepare(`DELETE FROM "WebhookOutbox" WHERE "seq" = ?`).run(gone);
      const [x, y, z] = owe(1, "w", 3);
      const retryAt = later(30_000);
      const written = [
        { row, delivery: x!, at: later(10), outcome: ok },
        { row, delivery: y!, at: later(20), outcome: refused(retryAt) },
        { row, delivery: z!, at: null, outcome: null },
        { row: gone, delivery: owe(1, "w-gone")[0]!, at: later(30), outcome: ok },
      ];
      await turn({ owner: me(), written, resolved: [row], total: 0 });
      const stored = db
        .prepare(
          `SELECT "id", "status", "attempts", "lastStatus", "deliveredAt" IS NOT NULL AS delivered
           FROM "WebhookDelivery" ORDER BY "seq"`,
        )
        .all();
      expect(stored).toEqual([
        { id: x!.id, status: "delivered", attempts: 1, lastStatus: 200, delivered: 1 },
        { id: y!.id, status: "pending", attempts: 1, lastStatus: 500, delivered: 0 },
        { id: z!.id, status: "pending", attempts: 0, lastStatus: null, delivered: 0 },
      ]);
      // The refused one heads its queue, due at its retry; the one not tried is behind it.
      expect(queue(1, "w")).toMatchObject({
        pending: 2,
        nextAttemptAt: retryAt.toISOString().replace("Z", "+00:00"),
      });
      expect(db.prepare(`SELECT count(*) FROM "WebhookOutbox"`).pluck().get()).toBe(0);
      // Written again (a row split meanwhile by another sender): nothing changes.
      const again = ownRow("w");
      await turn({ owner: me(), written: written.slice(0, 3).map((w) => ({ ...w, row: again })), total: 0 });
      expect(db.prepare(`SELECT count(*) FROM "WebhookDelivery"`).pluck().get()).toBe(3);
      expect(queue(1, "w")).toMatchObject({ pending: 2 });
    });

    it("of a sender not alive are split into queues by another; those of one alive are not", async () => {
      clear();
      alive("gone", later(-1));
      alive("here", later(60_000));
      const dead = ownRow("d", "gone");
      ownRow("h", "here");
      const split: SenderTurn["split"] = (r, webhooks) => splitOutbox(r, webhooks, now);
      await turn({ owner: "test-sender", split, total: 0, aliveUntil: later(15_000) });
      const left = db.prepare(`SELECT "owner" FROM "WebhookOutbox"`).pluck().all();
      expect(left).toEqual(["here"]);
      const d = db.prepare(`SELECT "id", "userId", "status" FROM "WebhookDelivery"`).all();
      expect(d).toEqual([
        { id: requestId({ seq: dead, createdAt: now }, 1, 0), userId: "d", status: "pending" },
      ]);
      expect(queue(1, "d")).toMatchObject({ pending: 1 });
      // The turn said the sender is alive.
      const until = db
        .prepare(`SELECT "aliveUntil" FROM "WebhookSender" WHERE "owner" = 'test-sender'`)
        .pluck()
        .get();
      expect(new Date(until as string).getTime()).toBeGreaterThan(now.getTime());
    });

    it("are sent one at a time per user and webhook, in order; a refused one is queued with those behind it", async () => {
      clear();
      const rows = [ownRow("line"), ownRow("line"), ownRow("line")];
      const calls: string[] = [];
      let answer: AttemptOutcome = ok;
      const sender = new Sender(outbox.sqliteOutbox as unknown as WebhookStore, async (d) => {
        calls.push(d.eventIds);
        await new Promise((r) => setTimeout(r, 20));
        return answer;
      });
      const outboxRows = () => db.prepare(`SELECT count(*) FROM "WebhookOutbox"`).pluck().get();
      const ids = rows.map(
        (seq) =>
          JSON.parse(
            db.prepare(`SELECT "events" FROM "WebhookOutbox" WHERE "seq" = ?`).pluck().get(seq) as string,
          )[0].id as string,
      );
      await sender.look();
      // One at a time: the second waits for the first's answer.
      expect(calls).toEqual([ids[0]]);
      await new Promise((r) => setTimeout(r, 30));
      expect(calls).toEqual([ids[0], ids[1]]);
      answer = refused(new Date(Date.now() + 3_600_000));
      await new Promise((r) => setTimeout(r, 30));
      await sender.look();
      await sender.look();
      expect(calls).toEqual([ids[0], ids[1]]);
      const stored = db
        .prepare(`SELECT "eventIds", "status", "attempts" FROM "WebhookDelivery" ORDER BY "seq"`)
        .all();
      expect(stored).toEqual([
        { eventIds: ids[0], status: "delivered", attempts: 1 },
        { eventIds: ids[1], status: "pending", attempts: 1 },
        { eventIds: ids[2], status: "pending", attempts: 0 },
      ]);
      expect(queue(1, "line")).toMatchObject({ pending: 2 });
      expect(outboxRows()).toBe(0);
      // A later row of the user goes behind them, into the queue.
      ownRow("line");
      await sender.look();
      await sender.look();
      expect(calls).toHaveLength(2);
      expect(queue(1, "line")).toMatchObject({ pending: 3 });
      sender.stop();
    });
  });
});
