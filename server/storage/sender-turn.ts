import type { SenderTurnResult } from "./webhooks";
import type { ClaimedDelivery } from "./webhook-records";

/*
 * A sender's turn as both engines take it (WebhookStore.turn): which of its own rows are handed
 * out, and in which order the webhooks' queues are held. The engines only read and write; the
 * order is decided here once.
 */

/** A sender's own rows handed out per turn, at most. */
export const OWN_ROWS = 500;

/**
 * The rows whose turn has come, in seq order: every earlier row of its user still in the outbox
 * is `known` or came before it here. A user's row that waits makes its later ones wait.
 */
export function readyRows<T extends { seq: number; userId: string }>(
  candidates: readonly T[],
  known: ReadonlySet<number>,
  earlier: (row: T) => number[],
): T[] {
  const ready: T[] = [];
  const taken = new Set<number>();
  const blocked = new Set<string>();
  for (const row of candidates) {
    if (known.has(row.seq)) continue;
    if (
      ready.length >= OWN_ROWS ||
      blocked.has(row.userId) ||
      earlier(row).some((seq) => !known.has(seq) && !taken.has(seq))
    ) {
      blocked.add(row.userId);
      continue;
    }
    ready.push(row);
    taken.add(row.seq);
  }
  return ready;
}

/** For rows of the outbox (any order): a row's earlier rows of the same user. */
export function earlierRows(rows: readonly { seq: number; userId: string }[]) {
  const byUser = new Map<string, number[]>();
  for (const r of rows) {
    const seqs = byUser.get(r.userId);
    if (seqs) seqs.push(r.seq);
    else byUser.set(r.userId, [r.seq]);
  }
  return (row: { seq: number; userId: string }) => byUser.get(row.userId)!.filter((seq) => seq < row.seq);
}

/** A webhook whose due queues a turn holds now, and how many at most. */
export interface ClaimStep {
  seq: number;
  url: string;
  token: string;
  limit: number;
}

/**
 * The enabled webhooks among `hooks` whose queues a turn holds, each with how many it may hold:
 * from a random one onwards (so none always takes the room first), at most `room(seq)` of a
 * webhook and `total` in all. `hold` holds up to a step's limit and answers what it held.
 */
export function claimInTurn(
  hooks: SenderTurnResult["webhooks"],
  total: number,
  room: (webhookSeq: number) => number,
  hold: (step: ClaimStep) => ClaimedDelivery[],
): ClaimedDelivery[];
export function claimInTurn(
  hooks: SenderTurnResult["webhooks"],
  total: number,
  room: (webhookSeq: number) => number,
  hold: (step: ClaimStep) => Promise<ClaimedDelivery[]>,
): Promise<ClaimedDelivery[]>;
export function claimInTurn(
  hooks: SenderTurnResult["webhooks"],
  total: number,
  room: (webhookSeq: number) => number,
  hold: (step: ClaimStep) => ClaimedDelivery[] | Promise<ClaimedDelivery[]>,
): ClaimedDelivery[] | Promise<ClaimedDelivery[]> {
  const webhooks = [...hooks]
    .filter(([, w]) => w.enabled)
    .map(([seq, w]) => ({ seq, url: w.url, token: w.token }));
  const start = webhooks.length ? Math.floor(Math.random() * webhooks.length) : 0;
  const claimed: ClaimedDelivery[] = [];
  const from = (i: number): ClaimedDelivery[] | Promise<ClaimedDelivery[]> => {
    for (; i < webhooks.length && claimed.length < total; i++) {
      const w = webhooks[(start + i) % webhooks.length]!;
      const limit = Math.min(room(w.seq), total - claimed.length);
      if (limit <= 0) continue;
      const held = hold({ ...w, limit });
      if (held instanceof Promise) {
        const next = i + 1;
        return held.then((found) => {
          claimed.push(...found);
          return from(next);
        });
      }
      claimed.push(...held);
    }
    return claimed;
  };
  return from(0);
}
