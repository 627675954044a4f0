import "./load-env";
import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import * as tar from "tar";
import { databaseEngine, databaseFile, databaseLabel } from "../server/config/database-url";
import { geodataDir } from "../server/bundles/folder";
import { BACKUP_FORMAT, type Manifest, appliedMigrations, release, sha256 } from "./backup-archive";

/**
 * `npm run backup -- FILE`: one archive of a running service (docs/deployment.md#backup-and-restore):
 * the database as one consistent snapshot (SQLite's online backup API, or pg_dump), the bundles
 * of the geodata folder, and a manifest (release, engine, migrations, files with their sizes and
 * sha256). Tracking goes on meanwhile: the snapshot holds every update acknowledged before it
 * began. The archive is written under a temporary name and renamed when complete.
 */

const USAGE = `npm run backup -- FILE [--no-bundles]

Writes FILE (a .tar.gz) with the database (DATABASE_URL) as one consistent snapshot, taken while
the service runs, and the imported bundles of its geodata folder (GEODATA_DIR). --no-bundles
leaves the bundles out (they can be imported again). Restore with npm run restore -- FILE.`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { "no-bundles": { type: "boolean", default: false }, help: { type: "boolean", short: "h" } },
});

const say = (line: string) => process.stdout.write(`${line}\n`);
const size = (bytes: number) =>
  bytes >= 1e6 ? `${(bytes / 1e6).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1e3))} kB`;

/** SQLite: the online backup API, the rest of the pages in one step (no restart under writes). */
async function snapshotSqlite(into: string): Promise<void> {
  const source = new Database(databaseFile(), { readonly: true, fileMustExist: true });
  try {
    let shown = -1;
    await source.backup(into, {
      progress({ totalPages, remainingPages }) {
        const percent = Math.floor((100 * (totalPages - remainingPages)) / Math.max(1, totalPages));
        if (percent >= shown + 10) say(`  database: ${(shown = percent)}%`);
        // Everything left in the next step: one read transaction, which writers (WAL) do not wait
        // for, so a write meanwhile cannot make the copy start over.
        return Math.max(100, remainingPages);
      },
    });
  } finally {
    source.close();
  }
}

/** PostgreSQL: pg_dump's custom format, one snapshot (a repeatable-read transaction). */
function snapshotPostgres(into: string): void {
  const result = spawnSync(
    "pg_dump",
    [
      "--format=custom",
      "--no-owner",
      "--no-privileges",
      `--file=${into}`,
      `--dbname=${process.env.DATABASE_URL}`,
    ],
    { encoding: "utf8" },
  );
  if (result.error)
    throw new Error(`pg_dump could not run (${result.error.message}): install PostgreSQL's client tools`);
  if (result.status !== 0) throw new Error(`pg_dump failed: ${result.stderr.trim()}`);
}

async function main(): Promise<void> {
  const target = positionals[0];
  if (values.help || !target || positionals.length > 1) {
    console.log(USAGE);
    process.exit(values.help ? 0 : 1);
  }
  const out = path.resolve(target);
  if (!existsSync(path.dirname(out))) throw new Error(`${path.dirname(out)} does not exist`);
  const engine = databaseEngine();
  const started = Date.now();
  const stage = mkdtempSync(path.join(tmpdir(), "location-backup-"));
  const partial = path.join(path.dirname(out), `.${path.basename(out)}.partial`);
  try {
    say(`Backing up ${databaseLabel()} (${engine}) into ${out}`);
    const migrations = await appliedMigrations();
    const database = engine === "postgresql" ? "database.pgdump" : "database.sqlite";
    if (engine === "postgresql") snapshotPostgres(path.join(stage, database));
    else await snapshotSqlite(path.join(stage, database));
    say(`  database: done (${size(statSync(path.join(stage, database)).size)})`);
    // The bundles as they are now: read-only files, replaced by a rename, so each is whole.
    const bundles: string[] = [];
    const dir = geodataDir();
    if (!values["no-bundles"] && existsSync(dir)) {
      mkdirSync(path.join(stage, "geodata"));
      for (const name of readdirSync(dir)
        .filter((n) => n.endsWith(".sqlite") && !n.startsWith("."))
        .sort()) {
        symlinkSync(path.join(dir, name), path.join(stage, "geodata", name));
        bundles.push(name);
      }
    }
    const files = [database, ...bundles.map((b) => `geodata/${b}`)];
    const manifest: Manifest = {
      format: BACKUP_FORMAT,
      createdAt: new Date(started).toISOString(),
      release: release(),
      engine,
      migrations,
      files: await Promise.all(
        files.map(async (name) => {
          const full = path.join(stage, name);
          return { name, bytes: statSync(full).size, sha256: await sha256(full) };
        }),
      ),
    };
    writeFileSync(path.join(stage, "manifest.json"), JSON.stringify(manifest, null, 2));
    say(`  archiving ${files.length} file(s)${bundles.length ? ` (bundles: ${bundles.join(", ")})` : ""}`);
    await tar.create({ gzip: true, file: partial, cwd: stage, follow: true, portable: true }, [
      "manifest.json",
      ...files,
    ]);
    renameSync(partial, out);
    say(
      `Backed up in ${((Date.now() - started) / 1000).toFixed(1)} s: ${out} (${size(statSync(out).size)}).`,
    );
    say(`Restore it with: npm run restore -- ${target}`);
  } finally {
    rmSync(stage, { recursive: true, force: true });
    rmSync(partial, { force: true });
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(`Backup failed: ${(e as Error).message}`);
    process.exit(1);
  },
);
