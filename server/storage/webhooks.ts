import type {
  ClaimedDelivery,
  DeliveryWrite,
  FinishedAttempt,
  OwnOutbox,
  OwnRequest,
  StoredDelivery,
  StoredOutbox,
  StoredWebhook,
} from "./webhook-records";
/* Webhooks and their outbox (docs/webhooks.md). */

/** What a sender hands in and asks for at each look (WebhookStore.turn). */
export interface SenderTurn {
  /** this sender's process (the owner its tracking writes on outbox rows) */
  owner: string;
  /** attempts at queued requests that ended */
  done: readonly FinishedAttempt[];
  /**
   * Requests of its own rows, in the order they are written (their queues' order): sent with how
   * their attempt ended, or put last in their queues. Written only while their row is in the
   * outbox (a user deleted meanwhile takes its rows).
   */
  written: readonly OwnRequest[];
  /** its own rows whose requests are all recorded or queued (with those above): removed */
  resolved: readonly number[];
  /** its own rows it holds (taken, or resolved and not yet removed): not handed out again */
  known: ReadonlySet<number>;
  now: Date;
  holdUntil: Date;
  /** queues to hold at most (0: queues are not looked at this turn) */
  total: number;
  room: (webhookSeq: number) => number;
  /** whether to look for rows of processes gone this turn */
  orphans: boolean;
  /** the sender is alive until then (written this turn), or null (not this turn) */
  aliveUntil: Date | null;
  /**
   * The requests a row of a process gone owes the webhooks among `webhooks` (those that still
   * exist), last in their queues: rows are split in the order they were written.
   */
  split: (row: StoredOutbox, webhooks: ReadonlySet<number>) => DeliveryWrite[];
}

/** What a turn hands back. */
export interface SenderTurnResult {
  /** queues held, with the first pending request of each */
  claimed: ClaimedDelivery[];
  /**
   * The sender's own rows not in `known` whose user's earlier rows still in the outbox are all
   * in `known` or handed out before them (the others wait: another sender's row goes first), in
   * seq order, at most OWN_ROWS
   */
  rows: OwnOutbox[];
  /** every webhook, as it is now */
  webhooks: Map<number, { url: string; token: string; enabled: boolean }>;
}

/** Webhooks and their outbox (docs/webhooks.md). */
export interface WebhookStore {
  create(w: Omit<StoredWebhook, "seq"> & { token: string }): Promise<StoredWebhook>;
  list(): Promise<StoredWebhook[]>;
  byId(id: string): Promise<StoredWebhook | null>;
  /** false: no such webhook */
  setEnabled(id: string, enabled: boolean, at: Date): Promise<boolean>;
  /** Removes the webhook and its outbox; false: no such webhook. */
  delete(id: string): Promise<boolean>;
  /** Adds a delivery outside tracking (a test event, a redelivery), last in its queue. */
  enqueue(d: DeliveryWrite): Promise<void>;
  /**
   * One turn of a sender (docs/webhooks.md#delivery), in these steps, each atomic (an engine may
   * run them in one transaction, as SQLite does, or in one each, as PostgreSQL does so that its
   * senders do not hold each other up):
   * - records the outcomes of the attempts that ended: those of queued requests (`done`; a queue
   *   goes on with its next request at once after one delivered or given up, at `retryAt` after
   *   one refused; an attempt on a delivery recorded meanwhile, whose hold ran out and another
   *   sender tried it, is left out), then writes the requests of its own rows (`written`: one
   *   refused goes first in its queue, one not tried last) and removes the `resolved` rows. A
   *   delivery whose id is already written is not written again;
   * - keeps the sender alive; splits the rows of processes whose sender is not (kill -9, or from
   *   before an upgrade) into their queues (one sender at a time, in the rows' order);
   * - hands out the sender's own rows it does not know yet whose turn has come, each with its
   *   user's busy queues;
   * - holds queues due at `now` until `holdUntil`: of enabled webhooks, not held by another
   *   sender, at most `room(webhookSeq)` of a webhook and `total` in all, in the order
   *   `claimInTurn` (./sender-turn.ts) gives. Two senders (in any
   *   process) never hold the same queue at once, and a queue waiting for a retry is not looked
   *   at before it is due.
   */
  turn(t: SenderTurn): Promise<SenderTurnResult>;
  /**
   * Removes up to `limit` deliveries made before `before` and no longer pending, and the senders
   * not alive since; how many deliveries.
   */
  prune(before: Date, limit: number): Promise<number>;
  /**
   * How many senders are alive at `now`: one per app process on this database (rate limits give
   * each process its share, server/http/limits.ts).
   */
  sendersAlive(now: Date): Promise<number>;
  /** A webhook's deliveries, newest first (`skip` of them left out), and how many it has. */
  deliveries(webhookSeq: number, take: number, skip?: number): Promise<StoredDelivery[]>;
  countDeliveries(webhookSeq: number): Promise<number>;
  deliveryById(id: string): Promise<StoredDelivery | null>;
  /**
   * What the webhooks are owed: outbox rows not yet sent by the process that wrote them, and
   * requests waiting in their queues (pending).
   */
  depth(): Promise<{ outbox: number; queued: number }>;
}
