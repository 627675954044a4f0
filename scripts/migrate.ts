import "./load-env";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { databaseEngine, databaseFile, databaseLabel } from "../server/config/database-url";
import { committedMigrations, migrationsDir as engineMigrations } from "../server/db/migrations";
import { log } from "../server/log/logger.mjs";

const root = path.resolve(import.meta.dirname, "..");
const migrationsDir = engineMigrations("sqlite", root);
const postgresMigrationsDir = engineMigrations("postgresql", root);

/**
 * The committed migrations the database has not applied, read from Prisma's own table without
 * taking a lock: a running server keeps its connections open, and Prisma's migrate engine asks
 * for an exclusive lock even when it has nothing to do.
 */
function pendingMigrations(file: string, committed: string[]): string[] {
  if (file === ":memory:" || !existsSync(file)) return committed;
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const table = db
      .prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_prisma_migrations'`)
      .get();
    if (!table) return committed;
    const applied = new Set(
      db
        .prepare(
          `SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
        )
        .pluck()
        .all() as string[],
    );
    return committed.filter((m) => !applied.has(m));
  } finally {
    db.close();
  }
}

/**
 * Applies the committed migrations that are pending (prisma migrate deploy, on Prisma's
 * WebAssembly engine) and switches the database to WAL. With nothing pending it only reads, so
 * the command-line tools (keys, accounts) work next to a running server.
 */
export async function migrate(): Promise<void> {
  if (databaseEngine() === "postgresql") return migratePostgres();
  const file = databaseFile();
  const committed = committedMigrations(migrationsDir);
  const pending = pendingMigrations(file, committed);
  if (pending.length > 0) {
    if (file !== ":memory:") mkdirSync(path.dirname(file), { recursive: true });
    // CHECKPOINT_DISABLE: Prisma's command line otherwise starts a process of its own that asks
    // checkpoint.prisma.io for a newer version; the service calls nothing its operator did not set.
    const result = spawnSync(
      process.execPath,
      [path.join(root, "node_modules/prisma/build/index.js"), "migrate", "deploy"],
      {
        cwd: root,
        env: { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: "1", CHECKPOINT_DISABLE: "1" },
        encoding: "utf8",
      },
    );
    if (result.status !== 0) {
      log.error({ output: result.stdout + result.stderr }, "prisma migrate deploy failed");
      throw new Error(
        `database migration failed for ${file} (${pending.length} pending: ${pending.join(", ")}). ` +
          "If a server of an older version is running on it, stop it first.",
      );
    }
  }
  const db = new Database(file);
  // WAL: readers never wait for the writer; the setting persists in the file, so it is only
  // asked for once (switching takes a lock a running server would hold up).
  if (db.pragma("journal_mode", { simple: true }) !== "wal") db.pragma("journal_mode = WAL");
  db.close();
  log.info(
    { database: file, migrations: committed.length, applied: pending.length },
    `Database ${file} is up to date (${committed.length} migrations${pending.length ? `, ${pending.length} applied now` : ""}).`,
  );
}

/**
 * PostgreSQL: the committed migrations of prisma/postgresql/migrations that the database has not
 * applied, each in a transaction of its own, recorded in "_migrations". Prisma's migrate cannot
 * run against PostgreSQL through its driver adapter (prisma/orm#27403, "Column type 'name' could
 * not be deserialized"), and its engine binaries cannot be downloaded here, so this applies the
 * SQL that `prisma migrate diff` wrote. An advisory lock makes app processes that start together
 * apply them once.
 */
async function migratePostgres(): Promise<void> {
  const committed = committedMigrations(postgresMigrationsDir);
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  const applied: string[] = [];
  try {
    await client.query(`SELECT pg_advisory_lock(hashtext('location-platform migrations'))`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS "_migrations" ("name" TEXT PRIMARY KEY, "appliedAt" TIMESTAMPTZ NOT NULL DEFAULT now())`,
    );
    const done = new Set(
      (await client.query<{ name: string }>(`SELECT "name" FROM "_migrations"`)).rows.map((r) => r.name),
    );
    for (const name of committed.filter((m) => !done.has(m))) {
      const sql = readFileSync(path.join(postgresMigrationsDir, name, "migration.sql"), "utf8");
      try {
        await client.query("BEGIN");
        await client.query(sql);
        await client.query(`INSERT INTO "_migrations" ("name") VALUES ($1)`, [name]);
        await client.query("COMMIT");
        applied.push(name);
      } catch (e) {
        await client.query("ROLLBACK");
        throw new Error(`database migration ${name} failed for ${databaseLabel()}: ${(e as Error).message}`);
      }
    }
  } finally {
    await client.end();
  }
  log.info(
    { database: databaseLabel(), migrations: committed.length, applied: applied.length },
    `Database ${databaseLabel()} is up to date (${committed.length} migrations${applied.length ? `, ${applied.length} applied now` : ""}).`,
  );
}

/**
 * Runs first-run setup (`fn`) so that app processes starting together on one PostgreSQL do it
 * once: the others wait, then find the keys and account made and make none.
 */
export async function asOneProcess<T>(fn: () => Promise<T>): Promise<T> {
  if (databaseEngine() !== "postgresql") return fn();
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    await client.query(`SELECT pg_advisory_lock(hashtext('location-platform first run'))`);
    return await fn();
  } finally {
    await client.end();
  }
}

if (import.meta.filename === process.argv[1]) {
  migrate().catch((e: unknown) => {
    log.fatal((e as Error).message);
    process.exit(1);
  });
}
