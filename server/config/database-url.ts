import path from "node:path";

export const DEFAULT_DATABASE_URL = "file:./data/location.db";

export type DatabaseEngine = "sqlite" | "postgresql";

const databaseUrl = () => process.env.DATABASE_URL || DEFAULT_DATABASE_URL;

/** Which engine DATABASE_URL names: postgres://… or postgresql://… is PostgreSQL, anything else a SQLite file. */
export function databaseEngine(url = databaseUrl()): DatabaseEngine {
  return /^postgres(ql)?:\/\//i.test(url) ? "postgresql" : "sqlite";
}

/**
 * The SQLite file named by DATABASE_URL ("file:./x.db", "file:/abs/x.db" or a bare path),
 * resolved against the working directory so the CLI, the server and the tests agree.
 */
export function databaseFile(url = databaseUrl()): string {
  if (databaseEngine(url) === "postgresql") {
    throw new Error("DATABASE_URL points at PostgreSQL: there is no database file");
  }
  const file = url.replace(/^file:/, "").replace(/\?.*$/, "");
  if (file === ":memory:") return file;
  // The file is chosen at run time; keep the bundler from tracing the whole project for it.
  return path.resolve(/*turbopackIgnore: true*/ process.cwd(), file);
}

/** DATABASE_URL without its password, for messages. */
export function databaseLabel(url = databaseUrl()): string {
  return databaseEngine(url) === "postgresql"
    ? url.replace(/\/\/([^:/@]+):[^@]*@/, "//$1:***@")
    : databaseFile(url);
}
