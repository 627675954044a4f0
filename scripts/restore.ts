import "./load-env";
import { spawnSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import pg from "pg";
import * as tar from "tar";
import { databaseEngine, databaseFile, databaseLabel } from "../server/config/database-url";
import { geodataDir } from "../server/bundles/folder";
import { BACKUP_FORMAT, type Manifest, sha256 } from "./backup-archive";

/**
 * `npm run restore -- FILE [--force]`: puts an archive of `npm run backup` back, into the database
 * DATABASE_URL names (the same engine as the archive's) and the geodata folder (GEODATA_DIR), with
 * the service stopped. It refuses a database or folder that holds data unless --force (then what the
 * archive holds replaces it). The database is written whole or not at all (SQLite: a file renamed
 * into place; PostgreSQL: one transaction). `npm start` then applies the migrations newer than the
 * archive's.
 */

const USAGE = `npm run restore -- FILE [--force]

Restores an archive of npm run backup into DATABASE_URL and GEODATA_DIR (stop the service first).
Refuses a database or geodata folder that is not empty unless --force.`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { force: { type: "boolean", default: false }, help: { type: "boolean", short: "h" } },
});

const say = (line: string) => process.stdout.write(`${line}\n`);

/** Whether the SQLite file holds any table. */
function sqliteHoldsData(file: string): boolean {
  if (!existsSync(file)) return false;
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return !!db
      .prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' LIMIT 1`)
      .get();
  } finally {
    db.close();
  }
}

async function withPostgres<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** Whether the PostgreSQL database holds a table of its own (PostGIS's are not counted). */
function postgresHoldsData(): Promise<boolean> {
  return withPostgres(async (client) => {
    const { rows } = await client.query(
      `SELECT 1 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')
         AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = c.oid AND d.deptype = 'e')
       LIMIT 1`,
    );
    return rows.length > 0;
  });
}

function restoreSqlite(dump: string): void {
  const file = databaseFile();
  mkdirSync(path.dirname(file), { recursive: true });
  const incoming = `${file}.restoring`;
  copyFileSync(dump, incoming);
  for (const suffix of ["-wal", "-shm"]) rmSync(`${file}${suffix}`, { force: true });
  renameSync(incoming, file);
}

async function restorePostgres(dump: string, stage: string): Promise<void> {
  // PostGIS is the database's, not the archive's: made here when missing (a superuser's right, or
  // already there from the database's template), and left out of what pg_restore replays.
  await withPostgres((client) => client.query(`CREATE EXTENSION IF NOT EXISTS postgis`)).catch((e: Error) => {
    throw new Error(`the database needs PostGIS (CREATE EXTENSION postgis, as a superuser): ${e.message}`);
  });
  const toc = spawnSync("pg_restore", ["--list", dump], { encoding: "utf8" });
  if (toc.error)
    throw new Error(`pg_restore could not run (${toc.error.message}): install PostgreSQL's client tools`);
  if (toc.status !== 0) throw new Error(`pg_restore --list failed: ${toc.stderr.trim()}`);
  const list = path.join(stage, "restore.list");
  writeFileSync(
    list,
    toc.stdout
      .split("\n")
      .filter((line) => !/\bEXTENSION\b|\bspatial_ref_sys\b|\bSCHEMA - public\b/.test(line))
      .join("\n"),
  );
  const result = spawnSync(
    "pg_restore",
    [
      "--no-owner",
      "--no-privileges",
      "--single-transaction",
      "--exit-on-error",
      ...(values.force ? ["--clean", "--if-exists"] : []),
      `--use-list=${list}`,
      `--dbname=${process.env.DATABASE_URL}`,
      dump,
    ],
    { encoding: "utf8" },
  );
  if (result.status !== 0) throw new Error(`pg_restore failed, nothing was changed: ${result.stderr.trim()}`);
}

async function main(): Promise<void> {
  const file = positionals[0];
  if (values.help || !file || positionals.length > 1) {
    console.log(USAGE);
    process.exit(values.help ? 0 : 1);
  }
  if (!existsSync(file)) throw new Error(`${file} does not exist`);
  const engine = databaseEngine();
  const stage = mkdtempSync(path.join(tmpdir(), "location-restore-"));
  try {
    say(`Reading ${file}`);
    await tar.extract({ file, cwd: stage, strict: true });
    const manifestFile = path.join(stage, "manifest.json");
    if (!existsSync(manifestFile))
      throw new Error(`${file} is not an archive of npm run backup (no manifest.json)`);
    const manifest = JSON.parse(readFileSync(manifestFile, "utf8")) as Manifest;
    if (manifest.format !== BACKUP_FORMAT)
      throw new Error(
        `${file} is of backup format ${manifest.format}; this release reads format ${BACKUP_FORMAT}`,
      );
    if (manifest.engine !== engine) {
      throw new Error(
        `${file} holds a ${manifest.engine} database, and DATABASE_URL names ${engine}: restore into the same engine`,
      );
    }
    for (const f of manifest.files) {
      const full = path.join(stage, f.name);
      if (!existsSync(full) || (await sha256(full)) !== f.sha256)
        throw new Error(`${file} is damaged: ${f.name} does not match its checksum`);
    }
    const folder = geodataDir();
    const bundles = manifest.files.filter((f) => f.name.startsWith("geodata/"));
    const held = existsSync(folder)
      ? readdirSync(folder).filter((n) => n.endsWith(".sqlite") && !n.startsWith("."))
      : [];
    const holdsData = engine === "postgresql" ? await postgresHoldsData() : sqliteHoldsData(databaseFile());
    if (!values.force && (holdsData || held.length)) {
      throw new Error(
        `${holdsData ? `${databaseLabel()} holds data` : `${folder} holds bundles (${held.join(", ")})`}: ` +
          "restore into an empty database and folder, or add --force to replace what they hold",
      );
    }
    say(
      `  backup of ${manifest.createdAt}, release ${manifest.release}, ${manifest.migrations.length} migrations`,
    );
    const database = manifest.engine === "postgresql" ? "database.pgdump" : "database.sqlite";
    if (engine === "postgresql") await restorePostgres(path.join(stage, database), stage);
    else restoreSqlite(path.join(stage, database));
    say(`  database: restored into ${databaseLabel()}`);
    if (bundles.length) {
      mkdirSync(folder, { recursive: true });
      for (const b of bundles) {
        const name = path.basename(b.name);
        // Under a hidden name first: a running process never opens a half-copied bundle.
        copyFileSync(path.join(stage, b.name), path.join(folder, `.${name}.restoring`));
        renameSync(path.join(folder, `.${name}.restoring`), path.join(folder, name));
      }
      say(`  bundles: ${bundles.map((b) => path.basename(b.name)).join(", ")} into ${folder}`);
    }
    say("Restored. Start the service with npm start (it applies the migrations newer than the archive's).");
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(`Restore failed: ${(e as Error).message}`);
    process.exit(1);
  },
);
