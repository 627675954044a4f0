import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";

/**
 * `npm run upgrade-fixture -- --commit COMMIT`: the databases an earlier release made, kept in
 * tests/fixtures/upgrade/ for tests/api/upgrade.test.ts. The release is checked out (a git
 * worktree, with this checkout's node_modules hard-linked), serves a database of each engine (SQLite, and
 * PostgreSQL when TEST_POSTGRES_URL names a server), and is used over its API as a client would:
 * geofences, users tracked through them, events verified, a conversion, SDK logs, a webhook. What
 * it answered is kept beside the database, so the test compares the upgraded service's answers
 * with the old release's own.
 */

const { values } = parseArgs({ options: { commit: { type: "string", default: "559c158" } } });
const root = path.resolve(import.meta.dirname, "..");
const out = path.join(root, "tests", "fixtures", "upgrade");
const commit = execFileSync("git", ["rev-parse", "--short", values.commit], {
  cwd: root,
  encoding: "utf8",
}).trim();
const tree = path.join(root, ".tmp", `release-${commit}`);

function run(cmd: string, args: string[], cwd: string, env: Record<string, string> = {}) {
  const r = spawnSync(cmd, args, {
    cwd,
    env: { ...process.env, ...env },
    encoding: "utf8",
    stdio: "inherit",
  });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed`);
}

/** The release's checkout, its Prisma clients generated, its app built. */
function checkout(): void {
  if (!existsSync(tree)) {
    mkdirSync(path.dirname(tree), { recursive: true });
    run("git", ["worktree", "add", "--detach", tree, commit], root);
    // Hard links, not a symbolic link: Next.js's bundler reads no package outside the project.
    run("cp", ["-al", path.join(root, "node_modules"), path.join(tree, "node_modules")], root);
  }
  const prisma = path.join(root, "node_modules", "prisma", "build", "index.js");
  run(process.execPath, [prisma, "generate"], tree);
  run(process.execPath, [prisma, "generate", "--schema", "prisma/postgresql/schema.prisma"], tree);
}

/** Runs the driver in the release's checkout, with its own sources, for one engine. */
function drive(engine: "sqlite" | "postgresql"): void {
  const driver = path.join(tree, ".upgrade-driver.ts");
  writeFileSync(driver, DRIVER);
  const env: Record<string, string> = { FIXTURE_OUT: out, FIXTURE_COMMIT: commit };
  if (engine === "postgresql") env.TEST_ENGINE = "postgresql";
  else {
    env.TEST_ENGINE = "";
    env.TEST_POSTGRES_URL = "";
  }
  run(process.execPath, ["--import", "tsx", driver], tree, env);
}

/**
 * What runs inside the release: a fresh server of its own (its migrations, keys and accounts),
 * used over HTTP; then the process is stopped and its database kept (SQLite's file, or a pg_dump
 * of PostgreSQL's), with the keys, the password and what the server answered.
 */
const DRIVER = String.raw`
import { copyFileSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { gzipSync } from "node:zlib";
import path from "node:path";
import { startFreshServer, FRESH_ACCOUNTS, FRESH_PASSWORD } from "./scripts/fresh-server";

const out = process.env.FIXTURE_OUT;
const engine = process.env.TEST_ENGINE === "postgresql" ? "postgresql" : "sqlite";
const server = await startFreshServer();
const call = async (method, route, key, body) => {
  const res = await fetch(server.url + route, {
    method,
    headers: { authorization: key, ...(body && { "content-type": "application/json" }) },
    body: body && JSON.stringify(body),
  });
  const json = await res.json();
  if (res.status >= 300) throw new Error(method + " " + route + ": " + res.status + " " + JSON.stringify(json));
  return json;
};
const { secret, publishable, live } = server.keys;
await call("POST", "/v1/geofences", secret, { description: "Store 1", tag: "store", externalId: "1", type: "circle", coordinates: [-73.9857, 40.7484], radius: 150, metadata: { floors: 102 } });
await call("POST", "/v1/geofences", secret, { description: "Park", tag: "park", externalId: "central", type: "polygon", coordinates: [[[-73.9819, 40.7681], [-73.9580, 40.8003], [-73.9498, 40.7968], [-73.9737, 40.7644], [-73.9819, 40.7681]]] });
await call("POST", "/v1/geofences", secret, { description: "Office", tag: "office", externalId: "hq", type: "circle", coordinates: [-0.1276, 51.5072], radius: 300, enabled: false });
await call("POST", "/v1/geofences", live, { description: "Live store", tag: "store", externalId: "live-1", type: "circle", coordinates: [2.2945, 48.8584], radius: 200 });
const moves = [[40.7484, -73.9857], [40.7812, -73.9665], [40.7000, -74.0000], [40.7484, -73.9857]];
const t0 = Date.parse("2026-11-25T12:00:00Z");
for (const [i, user] of ["alice", "bob", "carol"].entries()) {
  for (const [n, [latitude, longitude]] of moves.entries()) {
    await call("POST", "/v1/track", publishable, { deviceId: "device-" + user, userId: user, latitude, longitude, accuracy: 10, metadata: { plan: "gold", n }, updatedAt: new Date(t0 + i * 3600_000 + n * 600_000).toISOString() });
  }
}
await call("POST", "/v1/track", live, { deviceId: "device-live", userId: "live-user", latitude: 48.8584, longitude: 2.2945, accuracy: 5 });
await call("POST", "/v1/events", secret, { userId: "alice", type: "purchase", metadata: { amount: 12 } });
await call("POST", "/v1/logs", publishable, { deviceId: "device-alice", logs: [{ level: "info", message: "started", createdAt: new Date(t0).toISOString() }] });
const events = (await call("GET", "/v1/events?limit=100", secret)).events;
const entered = events.find((e) => e.type === "user.entered_geofence");
await call("PUT", "/v1/events/" + entered._id + "/verification", secret, { verification: 1 });
execFileSync(process.execPath, ["--import", "tsx", "scripts/webhooks.ts", "create", "http://127.0.0.1:9/location"], { env: { ...process.env, DATABASE_URL: server.databaseUrl, WEBHOOKS_ALLOW_PRIVATE: "true" } });
const answered = {
  geofences: (await call("GET", "/v1/geofences?limit=100", secret)).geofences,
  liveGeofences: (await call("GET", "/v1/geofences?limit=100", live)).geofences,
  users: (await call("GET", "/v1/users?limit=100", secret)).users,
  events: (await call("GET", "/v1/events?limit=100", secret)).events,
};
process.kill(server.pid, "SIGTERM");
await new Promise((r) => setTimeout(r, 3000));
const name = path.join(out, engine);
if (engine === "sqlite") {
  const file = server.databaseUrl.slice("file:".length);
  const Database = (await import("better-sqlite3")).default;
  const db = new Database(file);
  db.pragma("wal_checkpoint(TRUNCATE)");
  db.close();
  writeFileSync(name + ".db.gz", gzipSync(await import("node:fs").then((fs) => fs.readFileSync(file))));
} else {
  // INSERTs (no COPY from standard input: any client can replay it), without psql's commands
  // (\restrict) or PostGIS's own statements (the database it is replayed into has PostGIS, and only its owner may comment on it).
  const sql = execFileSync("pg_dump", ["--no-owner", "--no-privileges", "--inserts", "--dbname=" + server.databaseUrl], { encoding: "utf8", maxBuffer: 1 << 28 });
  const kept = sql.split("\n").filter((line) => !/^(CREATE|COMMENT ON) EXTENSION/.test(line) && !/^(--|\\)/.test(line)).join("\n");
  writeFileSync(name + ".sql.gz", gzipSync(kept));
}
writeFileSync(name + ".json", JSON.stringify({ commit: process.env.FIXTURE_COMMIT, keys: server.keys, accounts: FRESH_ACCOUNTS, password: FRESH_PASSWORD, answered }, null, 2) + "\n");
await server.stop();
console.log("wrote " + name);
`;

mkdirSync(out, { recursive: true });
checkout();
drive("sqlite");
if (process.env.TEST_POSTGRES_URL) drive("postgresql");
else console.log("TEST_POSTGRES_URL is not set: the PostgreSQL fixture was not made");
run("git", ["worktree", "remove", "--force", tree], root);
rmSync(tree, { recursive: true, force: true });
