import type { SystemStore } from "../../storage/system";
import { rows } from "./sql";

/** The PostgreSQL adapter's SystemStore: the migrations table scripts/migrate.ts keeps. */
export const postgresSystem: SystemStore = {
  async appliedMigrations() {
    return (await rows<{ name: string }>(`SELECT "name" FROM "_migrations"`)).map((r) => r.name);
  },
};
