/** Where time and identifiers come from: passed in, so a decision can be replayed in a test. */
export interface Clock {
  /**
   * now; each call later than the one before (geofences' createdAt order their lists), so under
   * more than a thousand calls a second it runs ahead of the machine's time
   */
  now(): Date;
  /** the machine's time, for what is scheduled by it (the webhook outbox's next attempt) */
  wall(): Date;
  /** a new _id, made at `ms` when given */
  newId(ms?: number): string;
}
