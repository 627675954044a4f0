/* Keeping trails and SDK logs within their windows. */

/** Keeping trails and SDK logs within their windows (server/tracking/retention.ts). */
export interface RetentionStore {
  /**
   * Deletes trail points received before `before`, at most `batch` of the oldest (by seq: the
   * order they were received in); how many went.
   */
  pruneTrails(before: Date, batch: number): Promise<number>;
  /** Deletes at most `batch` SDK log lines received before `before`; how many went. */
  pruneLogs(before: Date, batch: number): Promise<number>;
}
