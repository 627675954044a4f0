import { spawnSync } from "node:child_process";
import path from "node:path";

/**
 * The API suite again, on PostgreSQL + PostGIS (part of `npm test`). TEST_POSTGRES_URL names a
 * database of a server whose role may create databases; each run makes a fresh database beside
 * it and drops it afterwards (scripts/fresh-server.ts). `.ci/run` installs and starts one.
 */
const url = process.env.TEST_POSTGRES_URL;
if (!url) {
  console.log(
    "\nThe API suite on PostgreSQL was skipped: set TEST_POSTGRES_URL=postgres://USER:PASSWORD@HOST/postgres " +
      "(a role that may create databases, on a server with PostGIS) to run it, as .ci/run does.",
  );
  process.exit(0);
}
console.log(`\nThe API suite on PostgreSQL (${url.replace(/\/\/([^:/@]+):[^@]*@/, "//$1:***@")}):`);
const root = path.resolve(import.meta.dirname, "..");
const result = spawnSync(
  process.execPath,
  [path.join(root, "node_modules/vitest/vitest.mjs"), "run", "--project", "api"],
  {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, TEST_ENGINE: "postgresql" },
  },
);
process.exit(result.status ?? 1);
