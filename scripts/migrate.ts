import "./load-env";
import { spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { databaseFile } from "../server/config/database-url";

const root = path.resolve(import.meta.dirname, "..");

/**
 * Applies the committed migrations (prisma migrate deploy, on Prisma's WebAssembly engine)
 * and switches the database to WAL. Safe to run on every start: applied migrations are skipped.
 */
export function migrate(): void {
  const file = databaseFile();
  if (file !== ":memory:") mkdirSync(path.dirname(file), { recursive: true });
  const result = spawnSync(
    process.execPath,
    [path.join(root, "node_modules/prisma/build/index.js"), "migrate", "deploy"],
    {
      cwd: root,
      env: { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: "1" },
      encoding: "utf8",
    },
  );
  if (result.status !== 0) {
    process.stderr.write(result.stdout + result.stderr);
    throw new Error(`database migration failed for ${file}`);
  }
  const applied = /(\d+) migrations? found/.exec(result.stdout);
  const db = new Database(file);
  // WAL: readers never wait for the writer; the setting persists in the file.
  db.pragma("journal_mode = WAL");
  db.close();
  console.log(`Database ${file} is up to date (${applied?.[1] ?? "?"} migrations).`);
}

if (import.meta.filename === process.argv[1]) {
  try {
    migrate();
  } catch (e) {
    console.error((e as Error).message);
    process.exit(1);
  }
}
