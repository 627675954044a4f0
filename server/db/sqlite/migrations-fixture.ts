import type Database from "better-sqlite3";
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";

/**
 * For unit tests on a database of their own: applies the committed SQLite migrations, in order,
 * as `prisma migrate deploy` does at start (without the engine or a `_prisma_migrations` table);
 * `range` applies only those from one migration (its folder name) or before one, to test an upgrade.
 */
export function applyMigrations(db: Database.Database, range: { from?: string; before?: string } = {}): void {
  const migrations = path.resolve(import.meta.dirname, "../../../prisma/migrations");
  for (const m of readdirSync(migrations)
    .filter((n) => /^\d/.test(n) && (!range.from || n >= range.from) && (!range.before || n < range.before))
    .sort())
    db.exec(readFileSync(path.join(migrations, m, "migration.sql"), "utf8"));
}
