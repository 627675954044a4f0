import { env } from "../config/env";
import type { SenderTurnResult, WebhookStore } from "../storage/webhooks";
import type {
  AttemptOutcome,
  ClaimedDelivery,
  DeliveryWrite,
  FinishedAttempt,
  OwnOutbox,
  OwnRequest,
  StoredOutbox,
} from "../storage/webhook-records";
import { statusAfter } from "../storage/outbox-columns";
import { processKey } from "../workers/thread-memory";
import { splitOutbox } from "./outbox";
import { log } from "../log/logger.mjs";
import { retryDelay, attempt, notTried } from "./attempt";

/**
 * The sender (docs/webhooks.md#delivery): splits what tracking wrote into the outbox into the
 * requests each webhook is owed, holds due queues (one per webhook and user) and posts the first
 * pending request of each, signed, so a user's events arrive in order; then records what
 * happened. A 2xx within TIMEOUT_MS acknowledges; anything else is retried with exponential
 * backoff and jitter for GIVE_UP_MS, then the delivery is failed. It runs on a thread
 * of its own (./sender-thread.ts), neither the server's nor the tracking thread; every app process
 * runs one, and a claim holds a queue for one sender only.
 */

/** A hold outlives any attempt: a sender killed mid-attempt lets its queues go after this. */
const HOLD_MS = 30_000;

/** Requests in flight at once per process, and per webhook (a slow receiver holds only its own). */
const IN_FLIGHT = 64;
const IN_FLIGHT_PER_WEBHOOK = 32;

/**
 * How often the outbox is looked at (the outcomes of the attempts since are recorded first, and
 * what tracking wrote since is taken): every 50 ms when the last look found nothing to do, 10 ms
 * after one that did (under load the sender is a loop that keeps its 64 requests going, not 64
 * requests per 50 ms; each look is a transaction, and fewer, larger ones cost less per request).
 */
const POLL_MS = 50;
const BUSY_POLL_MS = 10;

/**
 * Queues are looked at every QUEUES_MS (at once again after a look that held some): what they
 * hold waits for a retry, or behind one; the sender's own new rows are looked at every turn.
 * Rows of processes gone are looked for every ORPHANS_MS (a sender is taken for gone after 15 s).
 */
const QUEUES_MS = 50;
const ORPHANS_MS = 1000;

/**
 * A sender counts as alive for ALIVE_MS after it last said so, which it does every RENEW_MS: the
 * outbox rows of a process killed are split into queues by another sender within about 15 s.
 */
const ALIVE_MS = 15_000;
const RENEW_MS = 5_000;

/** How often, and how many at a time, deliveries older than WEBHOOKS_KEEP_DAYS are removed. */
const PRUNE_EVERY_MS = 60_000;
const PRUNE_BATCH = 5_000;

const lineOf = (d: Pick<DeliveryWrite, "webhookSeq" | "userId">) => `${d.webhookSeq}|${d.userId}`;

/** A request of one of the sender's own rows, sent straight from it or waiting to be. */
interface Owed {
  delivery: DeliveryWrite;
  row: number;
}

/**
 * The process's sender: polls the outbox and keeps up to IN_FLIGHT attempts going.
 *
 * The rows its own process's tracking wrote are sent straight from the row: no queue is written
 * for them unless an attempt is refused. A user's requests to a webhook form a line in memory,
 * sent one at a time in order; a refused one goes into its queue with every request behind it,
 * and later ones follow it there. A row waits while an earlier row of its user is another
 * sender's, and its request to a webhook goes into the queue while that queue has requests
 * pending (or the webhook is disabled, or has no room): the order per user holds across senders.
 * A row is removed, with the records of its requests, once each is recorded or queued; a row of
 * a sender killed meanwhile is split into queues by another (its requests may be sent again,
 * with the same webhook-id).
 */
export class Sender {
  private inFlight = new Map<number, number>();
  private total = 0;
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private looking = false;
  /** the process is being stopped: no new request is started (see `leave`) */
  private leaving = false;
  private prunedAt = 0;
  private queuesAt = 0;
  private orphansAt = 0;
  private aliveAt = 0;
  /** attempts ended since the last look: recorded together, in one transaction */
  private done: FinishedAttempt[] = [];
  /** requests of own rows sent or queued since the last look, in order */
  private written: OwnRequest[] = [];
  private resolved: number[] = [];
  /** own rows taken: how many of their requests are not yet recorded or queued */
  private open = new Map<number, number>();
  /** own rows resolved, until the turn that removes them has ended */
  private removing = new Set<number>();
  /** lines with requests put into their queues, until the turn that writes them has ended */
  private queuing = new Map<string, number>();
  /** per webhook and user: the request in flight, then those waiting behind it */
  private lines = new Map<string, Owed[]>();
  private webhooks: SenderTurnResult["webhooks"] = new Map();

  constructor(
    private store: WebhookStore,
    private send: (d: ClaimedDelivery) => Promise<AttemptOutcome> = attempt,
    /** keepAlive: its timer keeps the thread alive (the sender's own thread) */
    private options: { keepAlive?: boolean } = {},
  ) {}

  start() {
    if (this.timer) return;
    const next = (busy: boolean) => {
      if (!this.running) return;
      this.timer = setTimeout(() => void this.look().then(next), busy ? BUSY_POLL_MS : POLL_MS);
      if (!this.options.keepAlive) this.timer.unref?.();
    };
    this.running = true;
    next(false);
  }

  stop() {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /**
   * Leaves, for a process being stopped: no new request is started, the attempts in flight are
   * awaited for at most `ms` and recorded with everything else that ended, and the sender says it
   * is gone. Its rows left (requests not sent yet) are then split by another process's sender at
   * its next look for them (within a second), where a killed process's rows wait up to 15 s; and
   * a user's later rows, written by the next process, do not wait behind them that long.
   */
  async leave(ms: number): Promise<void> {
    this.stop();
    this.leaving = true;
    const end = Date.now() + ms;
    const pause = () => new Promise((resolve) => setTimeout(resolve, 5));
    while ((this.total > 0 || this.looking) && Date.now() < end) await pause();
    while (this.looking) await pause();
    const now = new Date();
    await this.store.turn({
      ...this.turnArguments(now),
      total: 0,
      orphans: false,
      // Alive until long ago: gone now.
      aliveUntil: new Date(0),
    });
    let unsent = 0;
    for (const line of this.lines.values()) unsent += line.length;
    log.info({ unsent }, "webhooks: left the requests not sent to the other processes");
  }

  /** What a turn records and asks, taking what ended since the last (see `look`). */
  private turnArguments(now: Date) {
    return {
      owner: processKey(),
      done: this.done.splice(0),
      written: this.written.splice(0),
      resolved: this.resolved.splice(0),
      known: new Set([...this.open.keys(), ...this.removing]),
      now,
      holdUntil: new Date(now.getTime() + HOLD_MS),
      room: (webhookSeq: number) => this.room(webhookSeq),
      split: (row: StoredOutbox, webhooks: ReadonlySet<number>) => splitOutbox(row, webhooks, now),
    };
  }

  /**
   * Records what ended and what was queued, then takes its own new rows and holds what is due
   * and free, and starts sending. Whether there was anything to do (then the next look comes
   * sooner).
   */
  async look(): Promise<boolean> {
    if (this.looking) return false;
    this.looking = true;
    try {
      const now = new Date();
      if (now.getTime() - this.prunedAt >= PRUNE_EVERY_MS) {
        this.prunedAt = now.getTime();
        const keep = env().WEBHOOKS_KEEP_DAYS * 24 * 3600_000;
        await this.store.prune(new Date(now.getTime() - keep), PRUNE_BATCH);
      }
      const queues = now.getTime() - this.queuesAt >= QUEUES_MS;
      const orphans = now.getTime() - this.orphansAt >= ORPHANS_MS;
      const alive = now.getTime() - this.aliveAt >= RENEW_MS;
      const asked = this.turnArguments(now);
      const { done, written, resolved } = asked;
      let turn: SenderTurnResult;
      try {
        turn = await this.store.turn({
          ...asked,
          total: queues ? IN_FLIGHT - this.total : 0,
          orphans,
          aliveUntil: alive ? new Date(now.getTime() + ALIVE_MS) : null,
        });
      } catch (e) {
        // Kept for the next look: their queues stay held (and unsent) until recorded.
        this.done.unshift(...done);
        this.written.unshift(...written);
        this.resolved.unshift(...resolved);
        throw e;
      }
      for (const seq of resolved) this.removing.delete(seq);
      for (const { delivery, outcome } of written) {
        if (statusAfter(outcome) !== "pending") continue;
        const key = lineOf(delivery);
        const n = this.queuing.get(key)! - 1;
        if (n > 0) this.queuing.set(key, n);
        else this.queuing.delete(key);
      }
      this.webhooks = turn.webhooks;
      // A look that held queues is followed by another at once (more may be due).
      if (queues && !turn.claimed.length) this.queuesAt = now.getTime();
      if (orphans) this.orphansAt = now.getTime();
      if (alive) this.aliveAt = now.getTime();
      // (Held: sent even by a sender leaving meanwhile, which waits for them.)
      for (const d of turn.claimed) void this.run(d);
      // Rows taken or resolved while the turn ran are not taken again.
      const rows = turn.rows.filter((r) => !this.open.has(r.seq) && !this.removing.has(r.seq));
      this.take(rows, now);
      return done.length + written.length + turn.claimed.length + rows.length > 0;
    } catch (e) {
      log.error({ err: e }, "webhooks: the sender's turn failed");
      return false;
    } finally {
      this.looking = false;
    }
  }

  private room(webhookSeq: number) {
    return Math.min(IN_FLIGHT - this.total, IN_FLIGHT_PER_WEBHOOK - (this.inFlight.get(webhookSeq) ?? 0));
  }

  /** Own rows whose turn has come, in seq order: each request sent, or queued. */
  private take(rows: OwnOutbox[], now: Date) {
    const existing = new Set(this.webhooks.keys());
    for (const row of rows) {
      let open = 0;
      for (const delivery of splitOutbox(row, existing, now)) {
        const key = lineOf(delivery);
        const line = this.lines.get(key);
        const hook = this.webhooks.get(delivery.webhookSeq)!;
        if (line) {
          line.push({ delivery, row: row.seq });
          open++;
        } else if (
          this.queuing.has(key) ||
          row.busy.includes(delivery.webhookSeq) ||
          !hook.enabled ||
          this.room(delivery.webhookSeq) <= 0
        ) {
          this.queue(delivery, row.seq);
        } else {
          this.lines.set(key, [{ delivery, row: row.seq }]);
          open++;
          void this.direct(delivery, key);
        }
      }
      if (open) this.open.set(row.seq, open);
      else this.resolve(row.seq);
    }
  }

  /** Puts a request of its own row last in its queue (with the next turn). */
  private queue(delivery: DeliveryWrite, row: number) {
    this.written.push({ row, delivery, at: null, outcome: null });
    const key = lineOf(delivery);
    this.queuing.set(key, (this.queuing.get(key) ?? 0) + 1);
  }

  private resolve(row: number) {
    this.resolved.push(row);
    this.removing.add(row);
  }

  /** A request of its own row has been recorded or queued (with the next turn). */
  private settle(row: number) {
    const left = this.open.get(row)! - 1;
    if (left > 0) this.open.set(row, left);
    else {
      this.open.delete(row);
      this.resolve(row);
    }
  }

  /**
   * Sends the first of a line; then the next, or the rest into the queue after a refusal (or
   * while the webhook is disabled or has no room). Nothing is owed to a webhook deleted meanwhile.
   */
  private async direct(delivery: DeliveryWrite, key: string) {
    // Leaving: the line is left unsent, and its rows in the outbox for another sender.
    if (this.leaving) return;
    const hook = this.webhooks.get(delivery.webhookSeq);
    const line = this.lines.get(key)!;
    if (!hook) {
      for (const o of line) this.settle(o.row);
      this.lines.delete(key);
      return;
    }
    const outcome = await this.attempting(delivery.webhookSeq, () => this.send(notTried(delivery, hook)));
    const refused = statusAfter(outcome) === "pending";
    const row = line[0]!.row;
    this.written.push({ row, delivery, at: new Date(), outcome });
    // Refused, it goes first in its queue: later requests go behind it.
    if (refused) this.queuing.set(key, (this.queuing.get(key) ?? 0) + 1);
    this.settle(line.shift()!.row);
    const next = line[0];
    if (!next) {
      this.lines.delete(key);
      return;
    }
    if (!refused && this.webhooks.get(delivery.webhookSeq)?.enabled && this.room(delivery.webhookSeq) > 0) {
      void this.direct(next.delivery, key);
      return;
    }
    this.lines.delete(key);
    for (const o of line) {
      this.queue(o.delivery, o.row);
      this.settle(o.row);
    }
  }

  /** Counts an attempt in flight while it runs; a thrown error is an outcome (retried). */
  private async attempting(webhookSeq: number, run: () => Promise<AttemptOutcome>): Promise<AttemptOutcome> {
    this.total++;
    this.inFlight.set(webhookSeq, (this.inFlight.get(webhookSeq) ?? 0) + 1);
    try {
      return await run();
    } catch (e) {
      return {
        delivered: false,
        status: null,
        error: (e as Error).message,
        retryAt: new Date(Date.now() + retryDelay(1)),
      };
    } finally {
      this.total--;
      this.inFlight.set(webhookSeq, this.inFlight.get(webhookSeq)! - 1);
    }
  }

  private async run(d: ClaimedDelivery) {
    const outcome = await this.attempting(d.webhookSeq, () => this.send(d));
    this.done.push({ delivery: d, at: new Date(), outcome });
  }
}
