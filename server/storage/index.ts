import { databaseEngine } from "../config/database-url";
import { limitPoolSize, trackingConnections } from "../db/postgresql/pool";
import { postgresStorage } from "../db/postgresql/storage";
import { sqliteStorage } from "../db/sqlite/storage";
import type { Storage } from "./port";

export type * from "./port";
export { type MetadataFilter, metadataMatches } from "./metadata-filter";
export { GEOFENCE_SORTS, USER_SORTS } from "./records";

/**
 * The storage adapter DATABASE_URL names: file:… is SQLite, the embedded default (one process);
 * postgres://… is PostgreSQL with PostGIS, shared by any number of app processes
 * (docs/deployment.md).
 */
export function storage(): Storage {
  return databaseEngine() === "postgresql" ? postgresStorage() : sqliteStorage;
}

/**
 * For a thread that runs one query at a time (the webhook sender's): at most `max` database
 * connections, whatever PG_POOL_SIZE says. Called before its first query.
 */
export function limitConnections(max: number): void {
  limitPoolSize(max);
}

/**
 * For the tracking thread, which runs the same statements over and over: on PostgreSQL, each is
 * planned once per connection, not at every call. Called before its first query.
 */
export function trackingThreadConnections(): void {
  trackingConnections();
}
