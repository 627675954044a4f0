import type { OutboxWrite, StoredOutbox } from "./records";

/**
 * An outbox row's three JSON columns (WebhookOutbox: targets, events, user), as both engines
 * store them: text, written and read back as is (the events and user are bodies to be, not
 * values the database looks into).
 */
type OutboxJson = Record<"targets" | "events" | "user", string>;

export const outboxJson = (row: OutboxWrite): OutboxJson => ({
  targets: JSON.stringify(row.targets),
  events: JSON.stringify(row.events),
  user: JSON.stringify(row.user),
});

/** The columns read back; the user stays text: bodies are made around it, not from a copy. */
export const outboxFromJson = (text: OutboxJson): Pick<StoredOutbox, "targets" | "events" | "userJson"> => ({
  targets: JSON.parse(text.targets) as StoredOutbox["targets"],
  events: JSON.parse(text.events) as StoredOutbox["events"],
  userJson: text.user,
});

/**
 * A webhook sender counts as alive for SENDER_ALIVE_MS after it last said so, which it does
 * every SENDER_RENEW_MS: the outbox rows of a process killed are split into queues by another
 * sender within about 15 s.
 */
export const SENDER_ALIVE_MS = 15_000;
export const SENDER_RENEW_MS = 5_000;

/** A sender's own rows handed out per turn, at most. */
export const OWN_ROWS = 500;

/**
 * The rows whose turn has come, in seq order: every earlier row of its user still in the outbox
 * is `known` or came before it here. A user's row that waits makes its later ones wait (and
 * their earlier rows are not asked for).
 */
export function readyRows<T extends { seq: number; userId: string }>(
  candidates: readonly T[],
  known: ReadonlySet<number>,
  earlier: (row: T) => number[],
): { ready: T[]; waiting: number } {
  const ready: T[] = [];
  const taken = new Set<number>();
  const blocked = new Set<string>();
  let waiting = 0;
  for (const row of candidates) {
    if (known.has(row.seq)) continue;
    if (
      ready.length >= OWN_ROWS ||
      blocked.has(row.userId) ||
      earlier(row).some((seq) => !known.has(seq) && !taken.has(seq))
    ) {
      blocked.add(row.userId);
      waiting++;
      continue;
    }
    ready.push(row);
    taken.add(row.seq);
  }
  return { ready, waiting };
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
