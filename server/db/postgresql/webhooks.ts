import { shared } from "./shared-stores";
import type { SenderTurn, SenderTurnResult, WebhookStore } from "../../storage/webhooks";
import type {
  ClaimedDelivery,
  DeliveryWrite,
  FinishedAttempt,
  OutboxWrite,
  OwnOutbox,
  OwnRequest,
  StoredOutbox,
} from "../../storage/webhook-records";
import { outboxFromJson, outboxJson, statusAfter } from "../../storage/outbox-columns";
import { type ClaimStep, claimInTurn, earlierRows, readyRows } from "../../storage/sender-turn";
import { processKey } from "../../workers/thread-memory";
import { pool } from "./pool";
import { type Queryable, inTransaction, lockKey, rows } from "./sql";

/**
 * The webhook outbox on PostgreSQL (docs/webhooks.md#delivery), shared by every app process: what
 * tracking wrote (WebhookOutbox, one row per update, marked with its process, whose sender sends
 * it straight from the row), the requests (WebhookDelivery) and their queues, one per webhook
 * and user (WebhookQueue), as in ../sqlite/webhooks.ts. One sender at a time splits the rows of
 * processes gone (an advisory lock: rows split by two at once could put a user's later request
 * before an earlier one). Senders in several processes
 * take queues with `FOR UPDATE SKIP LOCKED`, so they never wait for each other nor hold the same
 * queue.
 *
 * Queue rows are locked in one order everywhere (webhook, then user), so a tracking transaction
 * (one user's queues) and a sender recording many outcomes never wait for each other in a circle.
 */

/** Writes an update's outbox row (in the tracking transaction that writes its events). */
export async function writeOutboxRow(client: Queryable, row: OutboxWrite | null): Promise<void> {
  if (!row) return;
  const { targets, events, user } = outboxJson(row);
  await rows(
    `INSERT INTO "WebhookOutbox" ("live", "owner", "userId", "targets", "events", "user", "createdAt")
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [row.live, processKey(), row.userId, targets, events, user, row.createdAt],
    client,
  );
}

/** Outbox rows split into requests per turn, at most. */
const SPLIT_ROWS = 500;
const SPLITTING = lockKey("webhook outbox split");

/** The owners of outbox rows whose sender is not alive (from an index: rows are not read). */
const GONE = `SELECT o."owner" FROM (SELECT DISTINCT "owner" FROM "WebhookOutbox") o WHERE NOT EXISTS
  (SELECT 1 FROM "WebhookSender" s WHERE s."owner" = o."owner" AND s."aliveUntil" > $1)`;

/**
 * Splits the oldest committed rows of processes whose sender is not alive into requests, last in
 * their queues, and removes them; skipped while another sender splits. A user's rows are
 * committed in order (its updates are applied one at a time), so a later one is never seen
 * without the earlier ones. A request already written (sent by the row's sender before it died)
 * is not written again. The rows are locked as they are read: a user's deletion under way is
 * waited for, and its rows are then gone.
 */
async function splitOrphans(
  split: SenderTurn["split"],
  webhooks: ReadonlySet<number>,
  now: Date,
): Promise<void> {
  // Most turns find none: one query, not a transaction.
  const [any] = await rows<{ found: boolean }>(`SELECT EXISTS (${GONE}) AS found`, [now]);
  if (!any?.found) return;
  await inTransaction(async (client) => {
    const [lock] = await rows<{ ok: boolean }>(
      `SELECT pg_try_advisory_xact_lock(${SPLITTING}) AS ok`,
      [],
      client,
    );
    if (!lock?.ok) return;
    const found = await rows<
      Omit<StoredOutbox, "targets" | "events" | "userJson"> & Record<"targets" | "events" | "user", string>
    >(
      `SELECT * FROM "WebhookOutbox" WHERE "owner" IN (${GONE}) ORDER BY "seq" LIMIT $2 FOR UPDATE`,
      [now, SPLIT_ROWS],
      client,
    );
    if (!found.length) return;
    const deliveries = found.flatMap((r) => split({ ...r, ...outboxFromJson(r) }, webhooks));
    await writeOutbox(client, deliveries);
    await rows(`DELETE FROM "WebhookOutbox" WHERE "seq" = ANY($1)`, [found.map((r) => r.seq)], client);
  });
}

/** Writes requests into the outbox and counts them in their queues (in the caller's transaction). */
export async function writeOutbox(client: Queryable, d: readonly DeliveryWrite[]): Promise<void> {
  await writeDeliveries(
    client,
    d.map((delivery) => ({ row: null, delivery, at: null, outcome: null })),
  );
}

/**
 * Writes deliveries in this order (seq order, which is their queues' order): requests not yet
 * tried (`outcome` null) or sent straight from their row with how it ended; pending ones are
 * counted in their queues (a queue with none pending is due at the time of the first written:
 * a refused one's retry, not the time of a later one behind it). One whose id is
 * already written, whose webhook is gone or whose own row (`row`, when given) is no longer in the
 * outbox is left out. The row is locked (FOR SHARE) while its requests are written: a user's
 * deletion under way, which takes its rows, is waited for, so no request of a deleted user is
 * written after the deletion removed the user's requests.
 */
async function writeDeliveries(
  client: Queryable,
  list: readonly (Omit<OwnRequest, "row"> & { row: number | null })[],
): Promise<void> {
  if (!list.length) return;
  const col = <T>(f: (x: (typeof list)[number]) => T) => list.map(f);
  const status = (x: (typeof list)[number]) => statusAfter(x.outcome);
  await rows(
    `WITH d AS (
       INSERT INTO "WebhookDelivery" ("id", "webhookSeq", "live", "userId", "types", "eventIds", "body", "status",
         "attempts", "nextAttemptAt", "lastAttemptAt", "lastStatus", "lastError", "createdAt", "deliveredAt")
       SELECT id, w, live, u, t, e, b, s, CASE WHEN at IS NULL THEN 0 ELSE 1 END, n, at, code, error, c,
         CASE WHEN s = 'delivered' THEN at END
       FROM unnest($1::text[], $2::int[], $3::boolean[], $4::text[], $5::text[], $6::text[], $7::text[],
         $8::text[], $9::timestamptz[], $10::timestamptz[], $11::int[], $12::text[], $13::timestamptz[], $14::int[])
         WITH ORDINALITY AS d(id, w, live, u, t, e, b, s, n, at, code, error, c, r, i)
       WHERE EXISTS (SELECT 1 FROM "Webhook" h WHERE h."seq" = d.w)
         AND (r IS NULL OR EXISTS (SELECT 1 FROM "WebhookOutbox" o WHERE o."seq" = d.r FOR SHARE))
       ORDER BY i
       ON CONFLICT ("id") DO NOTHING
       RETURNING "seq", "webhookSeq", "userId", "status", "nextAttemptAt")
     INSERT INTO "WebhookQueue" ("webhookSeq", "userId", "pending", "nextAttemptAt")
     SELECT "webhookSeq", "userId", count(*), (array_agg("nextAttemptAt" ORDER BY "seq"))[1]
     FROM d WHERE "status" = 'pending'
     GROUP BY "webhookSeq", "userId" ORDER BY "webhookSeq", "userId"
     ON CONFLICT ("webhookSeq", "userId") DO UPDATE SET "pending" = "WebhookQueue"."pending" + excluded."pending",
       "nextAttemptAt" = COALESCE("WebhookQueue"."nextAttemptAt", excluded."nextAttemptAt")`,
    [
      col((x) => x.delivery.id),
      col((x) => x.delivery.webhookSeq),
      col((x) => x.delivery.live),
      col((x) => x.delivery.userId),
      col((x) => x.delivery.types),
      col((x) => x.delivery.eventIds),
      col((x) => x.delivery.body),
      col(status),
      col((x) => (x.outcome && !x.outcome.delivered && x.outcome.retryAt) || x.delivery.nextAttemptAt),
      col((x) => x.at),
      col((x) => x.outcome?.status ?? null),
      col((x) => (x.outcome && !x.outcome.delivered ? x.outcome.error : null)),
      col((x) => x.delivery.createdAt),
      col((x) => x.row),
    ],
    client,
  );
}

/** The sender is alive until `until`. */
async function keepAlive(owner: string, until: Date): Promise<void> {
  await rows(
    `INSERT INTO "WebhookSender" ("owner", "aliveUntil") VALUES ($1, $2)
     ON CONFLICT ("owner") DO UPDATE SET "aliveUntil" = excluded."aliveUntil"`,
    [owner, until],
  );
}

/** The sender's own rows whose turn has come (see SenderTurnResult.rows), with busy queues. */
async function ownRows(owner: string, known: ReadonlySet<number>): Promise<OwnOutbox[]> {
  // Every row's seq, user and owner (the outbox holds what is in flight): each of the sender's
  // own with its user's earlier rows.
  const all = await rows<{ seq: number; userId: string; mine: boolean }>(
    `SELECT "seq", "userId", "owner" = $1 AS mine FROM "WebhookOutbox" ORDER BY "seq"`,
    [owner],
  );
  const ready = readyRows(
    all.filter((r) => r.mine),
    known,
    earlierRows(all),
  );
  if (!ready.length) return [];
  const found = await rows<
    Omit<StoredOutbox, "targets" | "events" | "userJson"> &
      Record<"targets" | "events" | "user", string> & { busy: number[] }
  >(
    `SELECT o."seq", o."live", o."userId", o."targets", o."events", o."user", o."createdAt",
       ARRAY(SELECT q."webhookSeq" FROM "WebhookQueue" q WHERE q."userId" = o."userId" AND q."pending" > 0) AS busy
     FROM "WebhookOutbox" o WHERE o."seq" = ANY($1) ORDER BY o."seq"`,
    [ready.map((r) => r.seq)],
  );
  return found.map(({ user, ...r }) => ({ ...r, ...outboxFromJson({ ...r, user }) }));
}

/** Removes a user's requests, sent or not, and its queues (with the user: they carry its data). */
export async function deleteUserOutbox(client: Queryable, userId: string): Promise<void> {
  // Its rows locked in seq order first, the order in which a sender splitting rows locks them
  // (so the two never wait for each other in a circle).
  await rows(`SELECT 1 FROM "WebhookOutbox" WHERE "userId" = $1 ORDER BY "seq" FOR UPDATE`, [userId], client);
  await rows(`DELETE FROM "WebhookOutbox" WHERE "userId" = $1`, [userId], client);
  await rows(
    `SELECT 1 FROM "WebhookQueue" WHERE "userId" = $1 ORDER BY "webhookSeq" FOR UPDATE`,
    [userId],
    client,
  );
  await rows(`DELETE FROM "WebhookDelivery" WHERE "userId" = $1`, [userId], client);
  await rows(`DELETE FROM "WebhookQueue" WHERE "userId" = $1`, [userId], client);
}

type DeliveryRow = Omit<ClaimedDelivery, "seq" | "url" | "token"> & { seq: number | null; queueUser: string };

/** One webhook's due queues, held, each with its first pending request. */
async function claimOf(w: ClaimStep, now: Date, holdUntil: Date): Promise<ClaimedDelivery[]> {
  const found = await rows<DeliveryRow>(
    `WITH picked AS (
       SELECT "userId" FROM "WebhookQueue"
       WHERE "webhookSeq" = $1 AND "nextAttemptAt" <= $2 AND ("lockedUntil" IS NULL OR "lockedUntil" < $2)
       ORDER BY "nextAttemptAt" LIMIT $4 FOR UPDATE SKIP LOCKED),
     held AS (
       UPDATE "WebhookQueue" q SET "lockedUntil" = $3 FROM picked
       WHERE q."webhookSeq" = $1 AND q."userId" = picked."userId" RETURNING q."userId")
     SELECT held."userId" AS "queueUser", d.* FROM held
     LEFT JOIN LATERAL (SELECT * FROM "WebhookDelivery" h
       WHERE h."webhookSeq" = $1 AND h."userId" = held."userId" AND h."status" = 'pending'
       ORDER BY h."seq" LIMIT 1) d ON true`,
    [w.seq, now, holdUntil, w.limit],
  );
  const claimed: ClaimedDelivery[] = [];
  const headless: string[] = [];
  for (const { queueUser, ...r } of found) {
    if (r.seq === null) headless.push(queueUser);
    else claimed.push({ ...r, seq: r.seq, url: w.url, token: w.token });
  }
  if (headless.length) await settleHeadless(w.seq, headless);
  return claimed.sort((a, b) => a.seq - b.seq);
}

/**
 * Queues held without a pending request in sight: one made due by a transaction that committed
 * while the claim ran (its request was not in the claim's snapshot) is let go to be taken next
 * time; one that counts requests it no longer has is set right. Told apart after locking the
 * rows, by a statement that sees what is committed by then.
 */
async function settleHeadless(webhookSeq: number, users: string[]) {
  await inTransaction(async (client) => {
    await rows(
      `SELECT 1 FROM "WebhookQueue" WHERE "webhookSeq" = $1 AND "userId" = ANY($2) ORDER BY "userId" FOR UPDATE`,
      [webhookSeq, users],
      client,
    );
    await rows(
      `UPDATE "WebhookQueue" q SET "lockedUntil" = NULL,
         "pending" = CASE WHEN p.n IS NULL THEN 0 ELSE q."pending" END,
         "nextAttemptAt" = CASE WHEN p.n IS NULL THEN NULL ELSE q."nextAttemptAt" END
       FROM unnest($2::text[]) AS u("userId")
       LEFT JOIN LATERAL (SELECT 1 AS n FROM "WebhookDelivery" d
         WHERE d."webhookSeq" = $1 AND d."userId" = u."userId" AND d."status" = 'pending' LIMIT 1) p ON true
       WHERE q."webhookSeq" = $1 AND q."userId" = u."userId"`,
      [webhookSeq, users],
      client,
    );
  });
}

/**
 * Outcomes in one transaction: the queues locked first in their one order, then each delivery
 * recorded if it is still as claimed, and its queue moved on (next request now, or the retry).
 */
async function finishMany(done: readonly FinishedAttempt[], now: Date): Promise<void> {
  if (!done.length) return;
  const list = [...done].sort(
    (a, b) =>
      a.delivery.webhookSeq - b.delivery.webhookSeq ||
      (a.delivery.userId < b.delivery.userId ? -1 : a.delivery.userId > b.delivery.userId ? 1 : 0),
  );
  const col = <T>(f: (x: FinishedAttempt) => T) => list.map(f);
  const status = (x: FinishedAttempt) => statusAfter(x.outcome);
  await inTransaction(async (client) => {
    await rows(
      `SELECT 1 FROM "WebhookQueue" q JOIN unnest($1::int[], $2::text[]) WITH ORDINALITY AS k(w, u, i)
         ON q."webhookSeq" = k.w AND q."userId" = k.u ORDER BY k.i FOR UPDATE OF q`,
      [col((x) => x.delivery.webhookSeq), col((x) => x.delivery.userId)],
      client,
    );
    await rows(
      `WITH done AS (
         SELECT * FROM unnest($1::int[], $2::int[], $3::text[], $4::timestamptz[], $5::int[], $6::text[],
           $7::timestamptz[]) AS x(seq, attempts, status, at, code, error, retry_at)),
       recorded AS (
         UPDATE "WebhookDelivery" d SET "status" = done.status, "attempts" = d."attempts" + 1,
           "lastAttemptAt" = done.at, "lastStatus" = done.code, "lastError" = done.error,
           "deliveredAt" = CASE WHEN done.status = 'delivered' THEN done.at ELSE NULL END,
           "nextAttemptAt" = COALESCE(done.retry_at, d."nextAttemptAt")
         FROM done WHERE d."seq" = done.seq AND d."status" = 'pending' AND d."attempts" = done.attempts
         RETURNING d."webhookSeq", d."userId", done.status, done.retry_at)
       UPDATE "WebhookQueue" q SET "lockedUntil" = NULL,
         "pending" = CASE WHEN r.status = 'pending' THEN q."pending" ELSE GREATEST(0, q."pending" - 1) END,
         "nextAttemptAt" = CASE WHEN r.status = 'pending' THEN r.retry_at
           WHEN q."pending" > 1 THEN $8::timestamptz ELSE NULL END
       FROM recorded r WHERE q."webhookSeq" = r."webhookSeq" AND q."userId" = r."userId"`,
      [
        col((x) => x.delivery.seq),
        col((x) => x.delivery.attempts),
        col(status),
        col((x) => x.at),
        col((x) => x.outcome.status),
        col((x) => (x.outcome.delivered ? null : x.outcome.error)),
        col((x) => (x.outcome.delivered ? null : x.outcome.retryAt)),
        now,
      ],
      client,
    );
  });
}

export const postgresOutbox: Pick<WebhookStore, "enqueue" | "turn" | "prune" | "sendersAlive"> = {
  async sendersAlive(now) {
    const found = await rows<{ n: number }>(
      `SELECT COUNT(*)::int AS n FROM "WebhookSender" WHERE "aliveUntil" > $1`,
      [now],
    );
    return found[0]?.n ?? 0;
  },
  enqueue: (d) => inTransaction((client) => writeOutbox(client, [d])),
  async turn(t): Promise<SenderTurnResult> {
    await finishMany(t.done, t.now);
    if (t.written.length || t.resolved.length)
      await inTransaction(async (client) => {
        await writeDeliveries(client, t.written);
        if (t.resolved.length)
          await rows(`DELETE FROM "WebhookOutbox" WHERE "seq" = ANY($1)`, [t.resolved], client);
      });
    if (t.aliveUntil) await keepAlive(t.owner, t.aliveUntil);
    const found = await rows<{ seq: number; url: string; token: string; enabled: boolean }>(
      `SELECT "seq", "url", "token", "enabled" FROM "Webhook"`,
    );
    const webhooks = new Map(found.map((h) => [h.seq, { url: h.url, token: h.token, enabled: h.enabled }]));
    if (t.orphans) await splitOrphans(t.split, new Set(webhooks.keys()), t.now);
    return {
      rows: await ownRows(t.owner, t.known),
      webhooks,
      claimed:
        t.total > 0
          ? await claimInTurn(webhooks, t.total, t.room, (w) => claimOf(w, t.now, t.holdUntil))
          : [],
    };
  },
  async prune(before, limit) {
    // Senders gone before the cutoff (one a process start) are forgotten with the records.
    await rows(`DELETE FROM "WebhookSender" WHERE "aliveUntil" < $1`, [before]);
    const removed = await rows<{ seq: number }>(
      `DELETE FROM "WebhookDelivery" WHERE "seq" IN (SELECT "seq" FROM "WebhookDelivery"
         WHERE "createdAt" < $1 AND "status" <> 'pending' ORDER BY "createdAt" LIMIT $2) RETURNING "seq"`,
      [before, limit],
      pool(),
    );
    return removed.length;
  },
};

export const postgresWebhooks: WebhookStore = { ...shared.webhooks, ...postgresOutbox };
