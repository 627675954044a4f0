import type { SystemStore } from "../../storage/system";
import { prepared } from "./connection";

/** The SQLite adapter's SystemStore: Prisma's migrations table (scripts/migrate.ts applies them). */
export const sqliteSystem: SystemStore = {
  async appliedMigrations() {
    return prepared(
      `SELECT "migration_name" FROM "_prisma_migrations" WHERE "finished_at" IS NOT NULL AND "rolled_back_at" IS NULL`,
    )
      .pluck()
      .all() as string[];
  },
};
