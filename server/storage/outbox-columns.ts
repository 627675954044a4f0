import type { AttemptOutcome, DeliveryStatus, OutboxWrite, StoredOutbox } from "./records";

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
 * What a delivery is after an attempt that ended so (null: not tried yet): refused with a retry
 * to come, it is still pending.
 */
export const statusAfter = (outcome: AttemptOutcome | null): DeliveryStatus =>
  !outcome ? "pending" : outcome.delivered ? "delivered" : outcome.retryAt ? "pending" : "failed";

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
