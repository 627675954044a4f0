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
import { claimInTurn, earlierRows, readyRows } from "../../storage/sender-turn";
import { processKey } from "../../workers/thread-memory";
import { withWriteLock } from "../write-lock";
import { connection, prepared, sqlDate, transaction, rowDate } from "./connection";
import { shared } from "./shared-stores";

/**
 * The webhook outbox on SQLite (docs/webhooks.md#delivery). Tracking writes what an update owes
 * as one WebhookOutbox row, marked with its process; that process's sender sends its requests
 * straight from the row and writes them as deliveries with their outcome. Rows of a process
 * whose sender is gone are split by a turn into requests, in order. Each request owed is a row of
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
    `INSERT INTO "WebhookOutbox" ("live", "owner", "userId", "targets", "events", "user", "createdAt")
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  ).run(row.live ? 1 : 0, processKey(), row.userId, targets, events, user, sqlDate(row.createdAt));
}

/** Outbox rows split into requests per turn, at most. */
const SPLIT_ROWS = 500;

interface OutboxRow {
  seq: number;
  live: number;
  userId: string;
  targets: string;
  events: string;
  user: string;
  createdAt: string;
}

const COLUMNS = `o."seq", o."live", o."userId", o."targets", o."events", o."user", o."createdAt"`;

const storedOf = (r: OutboxRow): StoredOutbox => ({
  seq: r.seq,
  live: r.live === 1,
  userId: r.userId,
  ...outboxFromJson(r),
  createdAt: new Date(r.createdAt),
});

/**
 * Splits the oldest rows of processes whose sender is not alive into requests, last in their
 * queues, and removes them. A request already written (sent by the row's sender before it died)
 * is not written again.
 */
function splitOrphans(split: SenderTurn["split"], webhooks: ReadonlySet<number>, now: Date): void {
  // The owners first (from an index: rows are not read), then the rows of those not alive.
  const gone = prepared(
    `SELECT o."owner" FROM (SELECT DISTINCT "owner" FROM "WebhookOutbox") o WHERE NOT EXISTS
       (SELECT 1 FROM "WebhookSender" s WHERE s."owner" = o."owner" AND s."aliveUntil" > ?)`,
  )
    .pluck()
    .all(sqlDate(now)) as string[];
  if (!gone.length) return;
  const found = prepared(
    `SELECT ${COLUMNS} FROM "WebhookOutbox" o WHERE o."owner" IN (SELECT value FROM json_each(?))
     ORDER BY o."seq" LIMIT ?`,
  ).all(JSON.stringify(gone), SPLIT_ROWS) as OutboxRow[];
  const remove = prepared(`DELETE FROM "WebhookOutbox" WHERE "seq" = ?`);
  for (const r of found) {
    writeOutbox(split(storedOf(r), webhooks));
    remove.run(r.seq);
  }
}

/** The sender's own rows whose turn has come (see SenderTurnResult.rows), with busy queues. */
function ownRows(owner: string, known: ReadonlySet<number>): OwnOutbox[] {
  // Every row's seq, user and owner (the outbox holds what is in flight): each of the sender's
  // own with its user's earlier rows.
  const all = prepared(`SELECT "seq", "userId", "owner" = ? AS mine FROM "WebhookOutbox" ORDER BY "seq"`).all(
    owner,
  ) as { seq: number; userId: string; mine: number }[];
  const ready = readyRows(
    all.filter((r) => r.mine),
    known,
    earlierRows(all),
  );
  if (!ready.length) return [];
  const busy = prepared(
    `SELECT "webhookSeq" FROM "WebhookQueue" WHERE "userId" = ? AND "pending" > 0`,
  ).pluck();
  const seqs = ready.map((r) => r.seq);
  const rows = prepared(
    `SELECT ${COLUMNS} FROM "WebhookOutbox" o WHERE o."seq" IN (SELECT value FROM json_each(?)) ORDER BY o."seq"`,
  ).all(JSON.stringify(seqs)) as OutboxRow[];
  return rows.map((r) => ({ ...storedOf(r), busy: busy.all(r.userId) as number[] }));
}

/** The sender is alive until `until`. */
function keepAlive(owner: string, until: Date): void {
  prepared(
    `INSERT INTO "WebhookSender" ("owner", "aliveUntil") VALUES (?, ?)
     ON CONFLICT ("owner") DO UPDATE SET "aliveUntil" = excluded."aliveUntil"`,
  ).run(owner, sqlDate(until));
}

/**
 * Writes deliveries in this order (seq order, which is their queues' order): requests not tried
 * (`outcome` null: last in their queue) or sent straight from their row, with how their attempt
 * ended (delivered, given up, or refused: then first in its queue, tried again at its retry).
 * One whose id is already written (its row was split meanwhile), whose webhook is gone, or whose
 * own row (`row`, when given) is no longer in the outbox (a user deleted meanwhile took it) is
 * left out.
 */
function writeRequests(list: readonly (Omit<OwnRequest, "row"> & { row: number | null })[]): void {
  const insert = prepared(
    `INSERT INTO "WebhookDelivery" ("id", "webhookSeq", "live", "userId", "types", "eventIds", "body", "status",
      "attempts", "nextAttemptAt", "lastAttemptAt", "lastStatus", "lastError", "createdAt", "deliveredAt")
     SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?
     WHERE EXISTS (SELECT 1 FROM "Webhook" WHERE "seq" = ?)
       AND (? IS NULL OR EXISTS (SELECT 1 FROM "WebhookOutbox" WHERE "seq" = ?))
     ON CONFLICT ("id") DO NOTHING`,
  );
  for (const { row, delivery: d, at, outcome: o } of list) {
    const when = at && sqlDate(at);
    const status = statusAfter(o);
    const next = sqlDate(o && !o.delivered && o.retryAt ? o.retryAt : d.nextAttemptAt);
    const inserted = insert.run(
      d.id,
      d.webhookSeq,
      d.live ? 1 : 0,
      d.userId,
      d.types,
      d.eventIds,
      d.body,
      status,
      o ? 1 : 0,
      next,
      when,
      o?.status ?? null,
      o && !o.delivered ? o.error : null,
      sqlDate(d.createdAt),
      o?.delivered ? when : null,
      d.webhookSeq,
      row,
      row,
    ).changes;
    // A queue that had nothing pending is due at once; one waiting (for its first, or a retry)
    // keeps its time.
    if (inserted && status === "pending")
      prepared(
        `INSERT INTO "WebhookQueue" ("webhookSeq", "userId", "pending", "nextAttemptAt") VALUES (?, ?, 1, ?)
         ON CONFLICT ("webhookSeq", "userId") DO UPDATE SET "pending" = "pending" + 1,
           "nextAttemptAt" = COALESCE("nextAttemptAt", excluded."nextAttemptAt")`,
      ).run(d.webhookSeq, d.userId, next);
  }
}

/** Writes requests into the outbox and their queues (in the caller's transaction). */
export function writeOutbox(deliveries: readonly DeliveryWrite[]): void {
  writeRequests(deliveries.map((delivery) => ({ row: null, delivery, at: null, outcome: null })));
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

function claimedOf({ queueUser: _queue, ...r }: DeliveryRow & { seq: number }): ClaimedDelivery {
  return {
    ...r,
    live: r.live === 1,
    status: r.status as ClaimedDelivery["status"],
    nextAttemptAt: new Date(r.nextAttemptAt),
    lastAttemptAt: rowDate(r.lastAttemptAt),
    createdAt: new Date(r.createdAt),
    deliveredAt: rowDate(r.deliveredAt),
  };
}

/** Holds due queues of the enabled webhooks among `hooks` (in the order claimInTurn says). */
function claim(
  hooks: SenderTurnResult["webhooks"],
  now: Date,
  holdUntil: Date,
  total: number,
  room: (webhookSeq: number) => number,
) {
  const at = sqlDate(now);
  // A webhook's due queues, oldest first, with the first pending request of each.
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
  return claimInTurn(hooks, total, room, (w) => {
    const claimed: ClaimedDelivery[] = [];
    for (const r of due.all(w.seq, at, at, w.limit) as DeliveryRow[]) {
      if (r.seq === null) {
        empty.run(w.seq, r.queueUser);
        continue;
      }
      hold.run(sqlDate(holdUntil), w.seq, r.queueUser);
      claimed.push(claimedOf({ ...r, seq: r.seq, url: w.url, token: w.token }));
    }
    return claimed;
  });
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

export const sqliteOutbox: Pick<WebhookStore, "enqueue" | "turn" | "prune" | "sendersAlive"> = {
  sendersAlive: async (now) =>
    prepared(`SELECT COUNT(*) FROM "WebhookSender" WHERE "aliveUntil" > ?`)
      .pluck()
      .get(sqlDate(now)) as number,
  enqueue: (d) => withWriteLock(() => transaction(() => writeOutbox([d]))),
  async turn(t): Promise<SenderTurnResult> {
    const found = prepared(`SELECT "seq", "url", "token", "enabled" FROM "Webhook"`).all() as {
      seq: number;
      url: string;
      token: string;
      enabled: number;
    }[];
    const webhooks = new Map(
      found.map((h) => [h.seq, { url: h.url, token: h.token, enabled: h.enabled === 1 }]),
    );
    // Writes under the process's write lock, in one transaction (none when there is nothing to
    // write); the sender's own rows (which are parsed) are read after it, without holding the lock.
    const writes =
      t.done.length + t.written.length + t.resolved.length > 0 || t.orphans || t.total > 0 || t.aliveUntil;
    const claimed = !writes
      ? []
      : await withWriteLock(() =>
          transaction(() => {
            finish(t.done, t.now);
            writeRequests(t.written);
            const remove = prepared(`DELETE FROM "WebhookOutbox" WHERE "seq" = ?`);
            for (const seq of t.resolved) remove.run(seq);
            if (t.aliveUntil) keepAlive(t.owner, t.aliveUntil);
            if (t.orphans) splitOrphans(t.split, new Set(webhooks.keys()), t.now);
            return t.total > 0 ? claim(webhooks, t.now, t.holdUntil, t.total, t.room) : [];
          }),
        );
    return { claimed, rows: connection().transaction(() => ownRows(t.owner, t.known))(), webhooks };
  },
  prune: (before, limit) =>
    withWriteLock(() => {
      // Senders gone before the cutoff (one a process start) are forgotten with the records.
      prepared(`DELETE FROM "WebhookSender" WHERE "aliveUntil" < ?`).run(sqlDate(before));
      return prepared(
        `DELETE FROM "WebhookDelivery" WHERE "seq" IN (SELECT "seq" FROM "WebhookDelivery"
           WHERE "createdAt" < ? AND "status" <> 'pending' ORDER BY "createdAt" LIMIT ?)`,
      ).run(sqlDate(before), limit).changes;
    }),
};

export const sqliteWebhooks: WebhookStore = { ...shared.webhooks, ...sqliteOutbox };
