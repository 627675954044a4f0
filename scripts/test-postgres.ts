import { spawnSync } from "node:child_process";
import path from "node:path";

/**
 * The API and browser suites again, on PostgreSQL + PostGIS (part of `npm test`). TEST_POSTGRES_URL names a
 * database of a server whose role may create databases; each run makes a fresh database beside
 * it and drops it afterwards (scripts/fresh-server.ts). `.ci/run` installs and starts one.
 */
const url = process.env.TEST_POSTGRES_URL;
if (!url) {
  console.log(
    "\nThe API and browser suites on PostgreSQL were skipped: set TEST_POSTGRES_URL=postgres://USER:PASSWORD@HOST/postgres " +
      "(a role that may create databases, on a server with PostGIS) to run them, as .ci/run does.",
  );
  process.exit(0);
}
const label = url.replace(/\/\/([^:/@]+):[^@]*@/, "//$1:***@");
const root = path.resolve(import.meta.dirname, "..");
const env = { ...process.env, TEST_ENGINE: "postgresql" };
const run = (what: string, script: string, args: string[]) => {
  console.log(`\n${what} on PostgreSQL (${label}):`);
  return spawnSync(process.execPath, [path.join(root, script), ...args], { cwd: root, stdio: "inherit", env })
    .status;
};
const api = run("The API suite and the upgrade suite", "node_modules/vitest/vitest.mjs", [
  "run",
  "--project",
  "api",
  "--project",
  "upgrade",
]);
if (api !== 0) process.exit(api ?? 1);
process.exit(run("The browser suite", "node_modules/@playwright/test/cli.js", ["test"]) ?? 1);
