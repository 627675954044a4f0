import { beforeAll, describe, expect, it } from "vitest";
import type { SenderTurn } from "../../storage/webhooks";
import type { AttemptOutcome, OutboxWrite } from "../../storage/webhook-records";
import { requestId, splitOutbox } from "../../webhooks/outbox";
import { processKey } from "../../workers/thread-memory";
import { usePostgresDatabase } from "./test-database.fixture";

/**
 * The PostgreSQL outbox (./webhooks.ts) at the store, on a fresh database: a sender's own rows
 * (handed out in order, after an earlier row of their user that is another sender's), their
 * requests written once and only while their row is still there, the rows of a sender gone split
 * into queues by another, and senders forgotten at prune. The API suites cover the same through
 * HTTP; these pin the store's guards. Needs TEST_POSTGRES_URL (a role that may create databases,
 * as .ci/run sets); skipped without it.
 */

const adminUrl = process.env.TEST_POSTGRES_URL;
const now = new Date("2026-11-25T12:00:00Z");
const later = (ms: number) => new Date(now.getTime() + ms);
const ok: AttemptOutcome = { delivered: true, status: 200 };

describe.skipIf(!adminUrl)("the PostgreSQL outbox", () => {
  usePostgresDatabase(adminUrl!);
  let outbox: typeof import("./webhooks");
  let sql: <T>(text: string, values?: unknown[]) => Promise<T[]>;

  beforeAll(async () => {
    outbox = await import("./webhooks");
    const { rows } = await import("./sql");
    sql = (text, values = []) => rows(text, values);
    for (const seq of [1, 2])
      await sql(
        `INSERT INTO "Webhook" ("seq", "id", "live", "url", "mode", "enabled", "token", "createdAt", "updatedAt")
         VALUES ($1, $2, false, 'http://example.com/', 'single', true, 'k', $3, $3)`,
        [seq, `w${seq}`, now],
      );
  });

  const clear = async () => {
    for (const table of ["WebhookDelivery", "WebhookQueue", "WebhookOutbox"])
      await sql(`DELETE FROM "${table}"`);
  };
  const count = async (table: string) =>
    Number((await sql<{ n: string }>(`SELECT count(*) AS n FROM "${table}"`))[0]!.n);
  const queue = async (w: number, u: string) =>
    (
      await sql<{ pending: number; nextAttemptAt: Date | null }>(
        `SELECT "pending", "nextAttemptAt" FROM "WebhookQueue" WHERE "webhookSeq" = $1 AND "userId" = $2`,
        [w, u],
      )
    )[0];

  let n = 0;
  /** Writes one update's outbox row (as tracking does), owned by this process or by `owner`. */
  async function ownRow(userId: string, owner?: string): Promise<number> {
    const row: OutboxWrite = {
      live: false,
      userId,
      targets: [{ seq: 1, mode: "single", types: null }],
      events: [{ id: `ev-${userId}-${++n}`, type: "user.entered_geofence", wire: { _id: `ev${n}` } }],
      user: { _id: userId },
      createdAt: now,
    };
    const { pool } = await import("./pool");
    await outbox.writeOutboxRow(pool(), row);
    const [{ seq }] = (await sql<{ seq: number }>(`SELECT max("seq") AS seq FROM "WebhookOutbox"`)) as [
      { seq: number },
    ];
    if (owner) await sql(`UPDATE "WebhookOutbox" SET "owner" = $1 WHERE "seq" = $2`, [owner, seq]);
    return seq;
  }
  const alive = (owner: string, until: Date) =>
    sql(
      `INSERT INTO "WebhookSender" ("owner", "aliveUntil") VALUES ($1, $2)
       ON CONFLICT ("owner") DO UPDATE SET "aliveUntil" = excluded."aliveUntil"`,
      [owner, until],
    );
  const turn = (t: Partial<SenderTurn>) =>
    outbox.postgresOutbox.turn({
      owner: processKey(),
      done: [],
      written: [],
      resolved: [],
      known: new Set(),
      now,
      holdUntil: later(30_000),
      total: 0,
      room: () => 32,
      orphans: false,
      aliveUntil: null,
      split: () => [],
      ...t,
    });
  const request = (userId: string) => ({
    id: `d${++n}`,
    webhookSeq: 1,
    live: false,
    userId,
    types: "user.entered_geofence",
    eventIds: `e${n}`,
    body: `{"n":${n}}`,
    nextAttemptAt: now,
    createdAt: now,
  });

  it("hands a sender its own rows in order, each once, after its user's rows of another sender", async () => {
    await clear();
    await alive("other", later(60_000));
    const r0 = await ownRow("c", "other");
    const [r1, r2, r3, r4] = [await ownRow("a"), await ownRow("b"), await ownRow("a"), await ownRow("c")];
    const first = await turn({});
    // r3 follows r1 (handed out before it); r4 waits for the other sender's r0.
    expect(first.rows.map((r) => r.seq)).toEqual([r1, r2, r3]);
    expect(JSON.parse(first.rows[0]!.userJson)).toEqual({ _id: "a" });
    const known = new Set([r1, r2, r3]);
    expect((await turn({ known })).rows).toEqual([]);
    await sql(`DELETE FROM "WebhookOutbox" WHERE "seq" = $1`, [r0]);
    expect((await turn({ known })).rows.map((r) => r.seq)).toEqual([r4]);
  });

  it("writes a row's requests in order, once, and only while the row is still there", async () => {
    await clear();
    const row = await ownRow("w");
    const gone = await ownRow("w-gone");
    // The user was deleted while its request was in flight: the deletion took its row.
    await sql(`DELETE FROM "WebhookOutbox" WHERE "seq" = $1`, [gone]);
    const [x, y, z] = [request("w"), request("w"), request("w")];
    const retryAt = later(30_000);
    const written = [
      { row, delivery: x, at: later(10), outcome: ok },
      {
        row,
        delivery: y,
        at: later(20),
        outcome: { delivered: false, status: 500, error: "HTTP 500", retryAt },
      },
      { row, delivery: z, at: null, outcome: null },
      { row: gone, delivery: request("w-gone"), at: later(30), outcome: ok },
    ] as const;
    await turn({ written: [...written], resolved: [row] });
    const stored = await sql(
      `SELECT "id", "status", "attempts", "lastStatus", "deliveredAt" IS NOT NULL AS delivered
       FROM "WebhookDelivery" ORDER BY "seq"`,
    );
    expect(stored).toEqual([
      { id: x.id, status: "delivered", attempts: 1, lastStatus: 200, delivered: true },
      { id: y.id, status: "pending", attempts: 1, lastStatus: 500, delivered: false },
      { id: z.id, status: "pending", attempts: 0, lastStatus: null, delivered: false },
    ]);
    // The refused one heads its queue, due at its retry; the one not tried is behind it.
    expect(await queue(1, "w")).toEqual({ pending: 2, nextAttemptAt: retryAt });
    expect(await count("WebhookOutbox")).toBe(0);
    // Written again (a row split meanwhile by another sender): nothing changes.
    const again = await ownRow("w");
    await turn({ written: written.slice(0, 3).map((w) => ({ ...w, row: again })) });
    expect(await count("WebhookDelivery")).toBe(3);
    expect(await queue(1, "w")).toMatchObject({ pending: 2 });
  });

  /** Runs `turn` while the user's deletion has taken its rows and requests and not committed. */
  async function duringDeletion(userId: string, turnOf: () => Promise<unknown>) {
    const { pool } = await import("./pool");
    const deletion = await pool().connect();
    try {
      await deletion.query("BEGIN");
      await outbox.deleteUserOutbox(deletion, userId);
      const recorded = turnOf();
      await new Promise((r) => setTimeout(r, 200));
      await deletion.query("COMMIT");
      await recorded;
    } finally {
      deletion.release();
    }
    return sql(`SELECT "id" FROM "WebhookDelivery" WHERE "userId" = $1`, [userId]);
  }

  it("writes nothing of a user whose deletion is under way, recorded or split", async () => {
    await clear();
    const row = await ownRow("leaving");
    const sent = () => turn({ written: [{ row, delivery: request("leaving"), at: now, outcome: ok }] });
    expect(await duringDeletion("leaving", sent)).toEqual([]);
    // A row of a sender gone, split by another.
    await alive("gone", later(-1));
    await ownRow("leaving-too", "gone");
    const split: SenderTurn["split"] = (r, webhooks) => splitOutbox(r, webhooks, now);
    expect(await duringDeletion("leaving-too", () => turn({ orphans: true, split }))).toEqual([]);
  });

  it("splits the rows of a sender not alive into queues; those of one alive are left", async () => {
    await clear();
    await alive("gone", later(-1));
    await alive("here", later(60_000));
    const dead = await ownRow("d", "gone");
    await ownRow("h", "here");
    const split: SenderTurn["split"] = (r, webhooks) => splitOutbox(r, webhooks, now);
    await turn({ owner: "test-sender", orphans: true, split, aliveUntil: later(15_000) });
    expect((await sql<{ owner: string }>(`SELECT "owner" FROM "WebhookOutbox"`)).map((r) => r.owner)).toEqual(
      ["here"],
    );
    expect(await sql(`SELECT "id", "userId", "status" FROM "WebhookDelivery"`)).toEqual([
      { id: requestId({ seq: dead, createdAt: now }, 1, 0), userId: "d", status: "pending" },
    ]);
    expect(await queue(1, "d")).toMatchObject({ pending: 1 });
    // The turn said the sender is alive.
    const [me] = await sql<{ aliveUntil: Date }>(
      `SELECT "aliveUntil" FROM "WebhookSender" WHERE "owner" = 'test-sender'`,
    );
    expect(me!.aliveUntil.getTime()).toBeGreaterThan(now.getTime());
  });

  it("forgets senders not alive since the cutoff, with the records", async () => {
    await clear();
    await alive("long-gone", now);
    await outbox.postgresOutbox.enqueue(request("old"));
    const row = await ownRow("old");
    await turn({ written: [{ row, delivery: request("old"), at: now, outcome: ok }], resolved: [row] });
    expect(await outbox.postgresOutbox.prune(later(1), 100)).toBe(1);
    const senders = await sql(`SELECT 1 FROM "WebhookSender" WHERE "owner" = 'long-gone'`);
    expect(senders).toEqual([]);
    // The pending one stays.
    expect(await count("WebhookDelivery")).toBe(1);
  });
});
