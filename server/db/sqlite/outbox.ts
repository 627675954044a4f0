import type {
  ClaimedDelivery,
  DeliveryWrite,
  FinishedAttempt,
  OutboxWrite,
  SenderTurn,
  StoredOutbox,
  WebhookStore,
} from "../../storage/port";
import { outboxFromJson, outboxJson } from "../../storage/outbox-columns";
import { withWriteLock } from "../write-lock";
import { prepared, sqlDate, transaction } from "./connection";

/**
 * The webhook outbox on SQLite (docs/webhooks.md#delivery). Tracking writes what an update owes
 * as one WebhookOutbox row; a sender's turn splits the oldest rows into requests, in order. Each
 * request owed is a row of
 * WebhookDelivery; the requests of one user to one webhook form a queue (a WebhookQueue row),
 * which is what the sender schedules and holds: a queue waiting for a retry is not looked at
 * before it is due, and its later requests wait behind its first without being scanned. The
 * queue counts its pending requests, so it knows whether it goes on after its first.
 *
 * Prepared statements (microseconds), in short transactions under the process's write lock: the
 * sender runs beside the tracking thread's writes and must not hold them up.
 */

/** Writes an update's outbox row (in the tracking transaction that writes its events). */
export function writeOutboxRow(row: OutboxWrite | null): void {
  if (!row) return;
  const { targets, events, user } = outboxJson(row);
  prepared(
    `INSERT INTO "WebhookOutbox" ("live", "userId", "targets", "events", "user", "createdAt")
     VALUES (?, ?, ?, ?, ?, ?)`,
  ).run(row.live ? 1 : 0, row.userId, targets, events, user, sqlDate(row.createdAt));
}

/** Outbox rows split into requests per turn, at most. */
const SPLIT_ROWS = 500;

/** Splits the oldest outbox rows into requests, last in their queues, and removes them. */
function splitRows(split: SenderTurn["split"]): void {
  const found = prepared(
    `SELECT "seq", "live", "userId", "targets", "events", "user", "createdAt" FROM "WebhookOutbox"
     ORDER BY "seq" LIMIT ?`,
  ).all(SPLIT_ROWS) as {
    seq: number;
    live: number;
    userId: string;
    targets: string;
    events: string;
    user: string;
    createdAt: string;
  }[];
  if (!found.length) return;
  const webhooks = new Set(prepared(`SELECT "seq" FROM "Webhook"`).pluck().all() as number[]);
  for (const r of found) {
    const row: StoredOutbox = {
      seq: r.seq,
      live: r.live === 1,
      userId: r.userId,
      ...outboxFromJson(r),
      createdAt: new Date(r.createdAt),
    };
    writeOutbox(split(row, webhooks));
  }
  prepared(`DELETE FROM "WebhookOutbox" WHERE "seq" <= ?`).run(found[found.length - 1]!.seq);
}

/** Writes requests into the outbox and their queues (in the caller's transaction). */
export function writeOutbox(deliveries: readonly DeliveryWrite[]): void {
  const insert = prepared(
    `INSERT INTO "WebhookDelivery" ("id", "webhookSeq", "live", "userId", "types", "eventIds", "body", "status",
      "attempts", "nextAttemptAt", "createdAt") VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?)`,
  );
  // A queue that had nothing pending is due at once; one waiting (for its first, or a retry)
  // keeps its time.
  const queue = prepared(
    `INSERT INTO "WebhookQueue" ("webhookSeq", "userId", "pending", "nextAttemptAt") VALUES (?, ?, 1, ?)
     ON CONFLICT ("webhookSeq", "userId") DO UPDATE SET "pending" = "pending" + 1,
       "nextAttemptAt" = COALESCE("nextAttemptAt", excluded."nextAttemptAt")`,
  );
  for (const d of deliveries) {
    const at = sqlDate(d.nextAttemptAt);
    insert.run(
      d.id,
      d.webhookSeq,
      d.live ? 1 : 0,
      d.userId,
      d.types,
      d.eventIds,
      d.body,
      at,
      sqlDate(d.createdAt),
    );
    queue.run(d.webhookSeq, d.userId, at);
  }
}

/** Removes a user's requests, sent or not, and its queues (with the user: they carry its data). */
export function deleteUserOutbox(userId: string): void {
  prepared(`DELETE FROM "WebhookOutbox" WHERE "userId" = ?`).run(userId);
  prepared(`DELETE FROM "WebhookDelivery" WHERE "userId" = ?`).run(userId);
  prepared(`DELETE FROM "WebhookQueue" WHERE "userId" = ?`).run(userId);
}

interface DeliveryRow {
  queueUser: string;
  seq: number | null;
  id: string;
  webhookSeq: number;
  live: number;
  userId: string;
  types: string;
  eventIds: string;
  body: string;
  status: string;
  attempts: number;
  nextAttemptAt: string;
  lastAttemptAt: string | null;
  lastStatus: number | null;
  lastError: string | null;
  createdAt: string;
  deliveredAt: string | null;
  url: string;
  token: string;
}

const date = (text: string | null) => (text === null ? null : new Date(text));

function claimedOf({ queueUser: _queue, ...r }: DeliveryRow & { seq: number }): ClaimedDelivery {
  return {
    ...r,
    live: r.live === 1,
    status: r.status as ClaimedDelivery["status"],
    nextAttemptAt: new Date(r.nextAttemptAt),
    lastAttemptAt: date(r.lastAttemptAt),
    createdAt: new Date(r.createdAt),
    deliveredAt: date(r.deliveredAt),
  };
}

function claim(now: Date, holdUntil: Date, total: number, room: (webhookSeq: number) => number) {
  const at = sqlDate(now);
  const webhooks = prepared(`SELECT "seq", "url", "token" FROM "Webhook" WHERE "enabled" = 1`).all() as {
    seq: number;
    url: string;
    token: string;
  }[];
  // Each webhook's due queues, oldest first, with the first pending request of each.
  const due = prepared(
    `SELECT q."userId" AS "queueUser", d.* FROM "WebhookQueue" q
     LEFT JOIN "WebhookDelivery" d ON d."seq" = (SELECT h."seq" FROM "WebhookDelivery" h
       WHERE h."webhookSeq" = q."webhookSeq" AND h."userId" = q."userId" AND h."status" = 'pending'
       ORDER BY h."seq" LIMIT 1)
     WHERE q."webhookSeq" = ? AND q."nextAttemptAt" <= ? AND (q."lockedUntil" IS NULL OR q."lockedUntil" < ?)
     ORDER BY q."nextAttemptAt" LIMIT ?`,
  );
  const hold = prepared(
    `UPDATE "WebhookQueue" SET "lockedUntil" = ? WHERE "webhookSeq" = ? AND "userId" = ?`,
  );
  // A queue counting requests it no longer has (none pending): set right.
  const empty = prepared(
    `UPDATE "WebhookQueue" SET "pending" = 0, "nextAttemptAt" = NULL, "lockedUntil" = NULL
     WHERE "webhookSeq" = ? AND "userId" = ?`,
  );
  const claimed: ClaimedDelivery[] = [];
  // Started at a different webhook each time, so none always takes the room first.
  const start = webhooks.length ? Math.floor(Math.random() * webhooks.length) : 0;
  for (let i = 0; i < webhooks.length && claimed.length < total; i++) {
    const w = webhooks[(start + i) % webhooks.length]!;
    const limit = Math.min(room(w.seq), total - claimed.length);
    if (limit <= 0) continue;
    for (const r of due.all(w.seq, at, at, limit) as DeliveryRow[]) {
      if (r.seq === null) {
        empty.run(w.seq, r.queueUser);
        continue;
      }
      hold.run(sqlDate(holdUntil), w.seq, r.queueUser);
      claimed.push(claimedOf({ ...r, seq: r.seq, url: w.url, token: w.token }));
    }
  }
  return claimed;
}

function finish(done: readonly FinishedAttempt[], now: Date) {
  const delivered = prepared(
    `UPDATE "WebhookDelivery" SET "status" = 'delivered', "attempts" = "attempts" + 1, "lastAttemptAt" = ?,
       "lastStatus" = ?, "lastError" = NULL, "deliveredAt" = ?
     WHERE "seq" = ? AND "status" = 'pending' AND "attempts" = ?`,
  );
  const refused = prepared(
    `UPDATE "WebhookDelivery" SET "status" = ?, "attempts" = "attempts" + 1, "lastAttemptAt" = ?,
       "lastStatus" = ?, "lastError" = ?, "nextAttemptAt" = COALESCE(?, "nextAttemptAt")
     WHERE "seq" = ? AND "status" = 'pending' AND "attempts" = ?`,
  );
  // Done with its first: the queue goes on at once with its next, or rests with none.
  const next = prepared(
    `UPDATE "WebhookQueue" SET "pending" = MAX(0, "pending" - 1), "lockedUntil" = NULL,
       "nextAttemptAt" = CASE WHEN "pending" > 1 THEN ? ELSE NULL END WHERE "webhookSeq" = ? AND "userId" = ?`,
  );
  const retry = prepared(
    `UPDATE "WebhookQueue" SET "lockedUntil" = NULL, "nextAttemptAt" = ? WHERE "webhookSeq" = ? AND "userId" = ?`,
  );
  for (const { delivery: d, at, outcome: o } of done) {
    const when = sqlDate(at);
    if (o.delivered) {
      if (delivered.run(when, o.status, when, d.seq, d.attempts).changes)
        next.run(sqlDate(now), d.webhookSeq, d.userId);
    } else if (o.retryAt) {
      const retryAt = sqlDate(o.retryAt);
      if (refused.run("pending", when, o.status, o.error, retryAt, d.seq, d.attempts).changes)
        retry.run(retryAt, d.webhookSeq, d.userId);
    } else if (refused.run("failed", when, o.status, o.error, null, d.seq, d.attempts).changes) {
      next.run(sqlDate(now), d.webhookSeq, d.userId);
    }
  }
}

export const sqliteOutbox: Pick<WebhookStore, "enqueue" | "turn" | "prune"> = {
  enqueue: (d) => withWriteLock(() => transaction(() => writeOutbox([d]))),
  turn: ({ done, now, holdUntil, total, room, split }) =>
    withWriteLock(() =>
      transaction(() => {
        finish(done, now);
        splitRows(split);
        return total > 0 ? claim(now, holdUntil, total, room) : [];
      }),
    ),
  prune: (before, limit) =>
    withWriteLock(
      () =>
        prepared(
          `DELETE FROM "WebhookDelivery" WHERE "seq" IN (SELECT "seq" FROM "WebhookDelivery"
             WHERE "createdAt" < ? AND "status" <> 'pending' ORDER BY "createdAt" LIMIT ?)`,
        ).run(sqlDate(before), limit).changes,
    ),
};
