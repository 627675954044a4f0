import type { TrackingPart } from "../../storage/tracking";
import type { Queryable } from "./sql";

/**
 * A kind of event's part of tracking storage on PostgreSQL (server/storage/tracking.ts,
 * TrackingPart), read and written inside the tracking store's transactions (./kinds.ts lists the
 * parts). A part may ride on the statements tracking sends anyway, so that a kind adds no round
 * trip: a column read with each user row, and data-modifying CTEs in the plans' one write
 * statement (./tracking-write.ts).
 */
export interface PgPart<R, W> {
  part: TrackingPart<R, W>;
  reader(tx: PgTracking): R;
  /**
   * A value read with each user row (a select-list expression over "User"), parsed, and kept in
   * `tx.withUser(name)` by user seq for the reader. Left out when the user row waited for another
   * transaction that changed it: the value is then of the statement's older snapshot.
   */
  withUser?: { column: string; parse(value: unknown): unknown };
  /**
   * Writes in the plans' one statement: CTEs (`name AS (...)`, comma-separated) fed by the rows
   * `rows` makes of each plan's writes — `[k, ...]`, k its plan's number — sent as one JSON
   * document at `$param` (./tracking-part.ts, rowsOf); CTE `u(k, seq)` holds each plan's user.
   */
  inStatement?: { ctes(param: number): string; rows(k: number, write: W): unknown[][] };
  /** Writes of its own, sent before the statement without waiting (the connection pipelines). */
  before?(client: Queryable, writes: W[]): Promise<unknown>;
}

/** The transaction a part's reader reads in. */
export interface PgTracking {
  client: Queryable;
  /** several updates decided side by side: questions asked in one turn may be gathered */
  batched: boolean;
  /** the values of this part read with the users (PgPart.withUser), by user seq */
  withUser(part: string): Map<number, unknown>;
}

export const pgPart = <R, W>(p: PgPart<R, W>): PgPart<unknown, unknown> => p as PgPart<unknown, unknown>;

/**
 * Rows from a JSON array of arrays (one JSON document per part: no text arrays for the driver to
 * escape and PostgreSQL to parse, and each JSON value parsed once), as columns named and typed.
 */
export function rowsOf(
  param: number,
  alias: string,
  columns: readonly (readonly [string, string])[],
): string {
  const value = ([name, type]: readonly [string, string], i: number) =>
    type === "jsonb"
      ? `NULLIF(r -> ${i}, 'null') AS ${name}`
      : type === "text"
        ? `r ->> ${i} AS ${name}`
        : `(r ->> ${i})::${type} AS ${name}`;
  return `(SELECT ${columns.map(value).join(", ")} FROM jsonb_array_elements($${param}::jsonb) r) AS ${alias}`;
}
