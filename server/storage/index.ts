import { sqliteStorage } from "../db/sqlite/storage";
import type { Storage } from "./port";

export type * from "./port";

/**
 * The storage adapter the configuration names. DATABASE_URL=file:… is SQLite, the embedded
 * default (server/config/database-url.ts refuses anything else until the PostgreSQL adapter of
 * issue 15 exists).
 */
export function storage(): Storage {
  return sqliteStorage;
}
