import path from "node:path";

export const DEFAULT_DATABASE_URL = "file:./data/location.db";

/**
 * The SQLite file named by DATABASE_URL ("file:./x.db", "file:/abs/x.db" or a bare path),
 * resolved against the working directory so the CLI, the server and the tests agree.
 */
export function databaseFile(url = process.env.DATABASE_URL || DEFAULT_DATABASE_URL): string {
  if (/^(postgres|postgresql):/i.test(url)) {
    throw new Error("DATABASE_URL points at PostgreSQL, which this build does not support yet");
  }
  const file = url.replace(/^file:/, "").replace(/\?.*$/, "");
  if (file === ":memory:") return file;
  // The file is chosen at run time; keep the bundler from tracing the whole project for it.
  return path.resolve(/*turbopackIgnore: true*/ process.cwd(), file);
}
