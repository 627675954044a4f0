import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { createReadStream, readFileSync } from "node:fs";
import path from "node:path";
import type { DatabaseEngine } from "../server/config/database-url";
import { storage } from "../server/storage";

/** What `npm run backup` writes and `npm run restore` reads (scripts/backup.ts, scripts/restore.ts). */

/** The archive's layout; a restore refuses a format it does not know. */
export const BACKUP_FORMAT = 1;

/** manifest.json, first in the archive. */
export interface Manifest {
  format: number;
  /** when the snapshot began: every update acknowledged before it is in the archive */
  createdAt: string;
  /** the release that wrote it: package version and, in a git checkout, its commit */
  release: string;
  engine: DatabaseEngine;
  /** the migrations the database had applied */
  migrations: string[];
  /** the database (database.sqlite or database.pgdump) and the bundles (geodata/NAME.sqlite) */
  files: { name: string; bytes: number; sha256: string }[];
}

const root = path.resolve(import.meta.dirname, "..");

/** A file's sha256, read as a stream (bundles may be larger than a buffer can hold). */
export async function sha256(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

export function release(): string {
  const { version } = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as {
    version: string;
  };
  const commit = spawnSync("git", ["rev-parse", "--short", "HEAD"], { cwd: root, encoding: "utf8" });
  return commit.status === 0 ? `${version} (${commit.stdout.trim()})` : version;
}

/** The migrations the database (DATABASE_URL) has applied. */
export async function appliedMigrations(): Promise<string[]> {
  return (await storage().system.appliedMigrations()).sort();
}
