import type { TrackingPart } from "../../storage/tracking";

/**
 * A kind of event's part of tracking storage on SQLite (server/storage/tracking.ts, TrackingPart):
 * its reader (synchronous statements answered as resolved promises) and its writes, run inside
 * the tracking store's transaction (./kinds.ts lists the parts).
 */
export interface SqlitePart<R, W> {
  part: TrackingPart<R, W>;
  reader: R;
  /** at the start of each batch's transaction, before any update of it is decided */
  begin?(): void;
  /** a plan's writes of the part, after its user (userSeq 0: the plan writes no user) */
  write?(userSeq: number, write: W): void;
}

export const sqlitePart = <R, W>(p: SqlitePart<R, W>): SqlitePart<unknown, unknown> =>
  p as SqlitePart<unknown, unknown>;
