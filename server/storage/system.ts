/** The database itself, as the readiness probe and the operators' tools see it. */
export interface SystemStore {
  /**
   * The names of the migrations the database has applied (each a folder of the engine's
   * migrations); throws when the database cannot be reached.
   */
  appliedMigrations(): Promise<string[]>;
}
