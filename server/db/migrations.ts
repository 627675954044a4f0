import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { type DatabaseEngine, databaseEngine } from "../config/database-url";

/**
 * The migrations this release holds, one folder each (prisma/migrations for SQLite,
 * prisma/postgresql/migrations for PostgreSQL: `npm run db:schemas` writes both), which
 * scripts/migrate.ts applies and the readiness probe compares with what the database has applied.
 */

/** The folder of an engine's migrations under the project's root (the server runs from it). */
export function migrationsDir(engine: DatabaseEngine = databaseEngine(), root = process.cwd()): string {
  return path.join(
    /*turbopackIgnore: true*/ root,
    engine === "postgresql" ? "prisma/postgresql/migrations" : "prisma/migrations",
  );
}

/** The committed migrations, by folder name, in the order they apply. */
export function committedMigrations(dir = migrationsDir()): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(path.join(dir, d.name, "migration.sql")))
    .map((d) => d.name)
    .sort();
}
