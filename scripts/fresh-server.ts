import { type ChildProcess, spawn } from "node:child_process";
import { copyFileSync, linkSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";

/**
 * A production server (scripts/serve.mjs) on a new database file in a temporary folder, with keys
 * made by the project's own code: what API tests, browser tests and benchmarks run against.
 *
 * As a command (Playwright's webServer): tsx scripts/fresh-server.ts --port 3100 --keys FILE
 */

export interface FreshKeys {
  secret: string;
  publishable: string;
  live: string;
  revoked: string;
}

/** Dashboard accounts of a fresh server, one per role, with this password. */
export const FRESH_PASSWORD = "correct-horse-battery";
export const FRESH_ACCOUNTS = {
  admin: "admin@example.test",
  analyst: "analyst@example.test",
  reviewer: "reviewer@example.test",
} as const;

export interface FreshServer extends RunningServer {
  keys: FreshKeys;
  /** where the server reads imported geodata bundles (GEODATA_DIR) */
  geodataDir: string;
}

/**
 * A new PostgreSQL database beside the one `adminUrl` names (whose role may create databases):
 * empty, or a copy of the database `template` names; and how to drop it.
 */
export async function createPostgresDatabase(
  adminUrl: string,
  template?: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `location_test_${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`;
  // A template may not be copied while a session is connected to it (55006): the process that
  // prepared it may still be closing its connections.
  await adminQuery(
    adminUrl,
    `CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ""}`,
    "55006",
  );
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => dropPostgresDatabase(adminUrl, name) };
}

/** Runs `sql` on the server `adminUrl` names, again (for up to 10 s) while it fails with `retryCode`. */
async function adminQuery(adminUrl: string, sql: string, retryCode: string): Promise<void> {
  const { default: pg } = await import("pg");
  for (let attempt = 1; ; attempt++) {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      return void (await client.query(sql));
    } catch (e) {
      if ((e as { code?: string }).code !== retryCode || attempt >= 40) throw e;
    } finally {
      await client.end();
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function dropPostgresDatabase(adminUrl: string, name: string): Promise<void> {
  // FORCE ends the tests' own connections, but a non-superuser may not end an autovacuum worker
  // cleaning the database after the tests' deletes (42501): it finishes within moments.
  await adminQuery(adminUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`, "42501");
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}

export interface ServeOptions {
  port?: number;
  env?: Record<string, string>;
  /** extra arguments for node itself, such as --cpu-prof when profiling */
  nodeArgs?: string[];
  /**
   * The database to start from, made in the server's folder (an earlier release's: the upgrade
   * tests), instead of an empty one; migrated, and given the keys and accounts it lacks.
   */
  database?: (dir: string) => Promise<{ url: string; drop(): Promise<void> }>;
}

export async function startFreshServer(opts: ServeOptions = {}): Promise<FreshServer> {
  const dir = mkdtempSync(path.join(tmpdir(), "location-"));
  const geodataDir = path.join(dir, "geodata");
  // TEST_ENGINE=postgresql (set by scripts/test-postgres.ts and the benchmarks) makes the
  // database on the server TEST_POSTGRES_URL names; otherwise a SQLite file.
  const postgresUrl = process.env.TEST_ENGINE === "postgresql" ? process.env.TEST_POSTGRES_URL : undefined;
  if (process.env.TEST_ENGINE === "postgresql" && !postgresUrl) {
    throw new Error("TEST_ENGINE=postgresql needs TEST_POSTGRES_URL=postgres://USER:PASSWORD@HOST/postgres");
  }
  // A copy of this run's template when it has one (FRESH_SERVER_TEMPLATES), else prepared here.
  const templates = opts.database ? undefined : process.env.FRESH_SERVER_TEMPLATES;
  const template = templates ? await preparedTemplate(templates, postgresUrl) : undefined;
  const postgres = opts.database
    ? await opts.database(dir)
    : postgresUrl
      ? await createPostgresDatabase(postgresUrl, template?.database)
      : undefined;
  if (template && !postgres) copyFileSync(template.database, path.join(dir, "location.db"));
  const databaseUrl = postgres?.url ?? `file:${path.join(dir, "location.db")}`;
  process.env.DATABASE_URL = databaseUrl;
  const { buildIfStale } = await import("./build");
  await buildIfStale();
  const keys = template?.keys ?? (await prepareDatabase(databaseUrl));

  const { database: _made, ...serveOptions } = opts;
  const server = await serve(databaseUrl, { ...serveOptions, env: { GEODATA_DIR: geodataDir, ...opts.env } });
  return {
    ...server,
    geodataDir,
    keys,
    async stop() {
      await server.stop();
      await postgres?.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * FRESH_SERVER_TEMPLATES names a folder the fresh servers of one test run share (the API suites'
 * global setup makes it, tests/support/server.ts): the first server's prepared database is kept
 * as a template (a file there, or a PostgreSQL database whose name is written there), and the
 * others start from a copy of it, its keys and accounts included, instead of migrating and making
 * them again in a process of their own (on SQLite 3.6 s and 5 core-seconds of a fresh server's
 * 10 s and 18; on PostgreSQL 2 s). Two processes asking at once may both prepare one: the first
 * to publish it is taken, the other's is dropped.
 */
async function preparedTemplate(
  templates: string,
  postgresUrl: string | undefined,
): Promise<{ database: string; keys: FreshKeys }> {
  const published = path.join(templates, postgresUrl ? "postgresql.json" : "sqlite.json");
  const read = () => publishedTemplate(published);
  const found = read();
  if (found) return found;
  const own = `${process.pid}-${Date.now().toString(36)}`;
  let database: string;
  let drop: () => Promise<void>;
  let keys: FreshKeys;
  if (postgresUrl) {
    const made = await createPostgresDatabase(postgresUrl);
    database = new URL(made.url).pathname.slice(1);
    drop = made.drop;
    keys = await prepareDatabase(made.url);
  } else {
    database = path.join(templates, `location-${own}.db`);
    keys = await prepareDatabase(`file:${database}`);
    // The preparing process exited without closing its connections: fold the log into the file,
    // so that a copy of the file alone is the whole database.
    const { default: Database } = await import("better-sqlite3");
    const db = new Database(database);
    db.pragma("wal_checkpoint(TRUNCATE)");
    db.close();
    drop = async () => rmSync(database, { force: true });
  }
  // Published whole or not at all: written beside, then linked to its name, which fails if taken.
  const staged = `${published}.${own}`;
  writeFileSync(staged, JSON.stringify({ database, keys }));
  try {
    linkSync(staged, published);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    await drop();
  } finally {
    rmSync(staged, { force: true });
  }
  return read()!;
}

/** The template published at `file` (see preparedTemplate), if there is one. */
function publishedTemplate(file: string): { database: string; keys: FreshKeys } | undefined {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as { database: string; keys: FreshKeys };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw e;
  }
}

/**
 * Makes a folder for FRESH_SERVER_TEMPLATES (see preparedTemplate) and sets it in this process's
 * environment, which the processes it starts afterwards inherit (Vitest's test workers), unless
 * one is set already. Returns what removes it and the template databases, or nothing.
 */
export function shareFreshTemplates(): (() => Promise<void>) | undefined {
  if (process.env.FRESH_SERVER_TEMPLATES) return undefined;
  const templates = mkdtempSync(path.join(tmpdir(), "location-templates-"));
  process.env.FRESH_SERVER_TEMPLATES = templates;
  return async () => {
    delete process.env.FRESH_SERVER_TEMPLATES;
    const adminUrl = process.env.TEST_POSTGRES_URL;
    const postgres = publishedTemplate(path.join(templates, "postgresql.json"));
    if (postgres && adminUrl) await dropPostgresDatabase(adminUrl, postgres.database);
    rmSync(templates, { recursive: true, force: true });
  };
}

const PREPARED = "fresh database prepared: ";

/**
 * Migrates the database and makes the keys and accounts a fresh server has, in a process of its
 * own: the server's modules keep one database client per process, bound to the first database
 * they were used with, so two fresh servers made in one process (the API and the upgrade suites'
 * global setups) would otherwise both get their keys in the first one's database.
 */
async function prepareDatabase(databaseUrl: string): Promise<FreshKeys> {
  const { execFile } = await import("node:child_process");
  const { promisify } = await import("node:util");
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["--import", "tsx", import.meta.filename, "--prepare"],
    { env: { ...process.env, DATABASE_URL: databaseUrl, LOG_FORMAT: "json" }, maxBuffer: 1 << 24 },
  );
  const line = stdout.split("\n").find((l) => l.startsWith(PREPARED));
  if (!line) throw new Error(`the fresh database was not prepared:\n${stdout}`);
  return JSON.parse(line.slice(PREPARED.length)) as FreshKeys;
}

/** `--prepare`: what prepareDatabase runs, on DATABASE_URL. */
async function prepareHere(): Promise<void> {
  const { migrate } = await import("./migrate");
  await migrate();
  const { createKey, revokeKey } = await import("../server/auth/keys");
  const secret = await createKey({ kind: "secret", live: false });
  const publishable = await createKey({ kind: "publishable", live: false });
  const live = await createKey({ kind: "secret", live: true });
  const revoked = await createKey({ kind: "secret", live: false });
  await revokeKey(revoked.record.id);
  const { createAccount } = await import("../server/auth/accounts");
  const { storage } = await import("../server/storage");
  // An earlier release's database (the upgrade tests) may have them already.
  for (const [role, email] of Object.entries(FRESH_ACCOUNTS)) {
    if (!(await storage().accounts.byEmail(email)))
      await createAccount({ email, role, password: FRESH_PASSWORD });
  }
  const keys: FreshKeys = {
    secret: secret.key,
    publishable: publishable.key,
    live: live.key,
    revoked: revoked.key,
  };
  process.stdout.write(`${PREPARED}${JSON.stringify(keys)}\n`);
}

export interface RunningServer {
  url: string;
  databaseUrl: string;
  /** the server process (scripts/serve.mjs) */
  pid: number;
  output(): string;
  stop(): Promise<void>;
}

/** The production server on an existing, migrated database; resolves once it answers /healthz. */
export async function serve(databaseUrl: string, opts: ServeOptions = {}): Promise<RunningServer> {
  // A free port is only free until someone takes it: another test file's server may listen on it
  // first, and then the /healthz answering there is that server's. The server is healthy when it
  // says it listens on its port itself; one that lost its port is started again on another.
  for (let attempt = 1; ; attempt++) {
    const started = await spawnServer(databaseUrl, opts);
    if ("url" in started) return started;
    if (opts.port !== undefined || attempt >= 3) {
      throw new Error(`server lost its port (it exited with code ${started.code}):\n${started.output}`);
    }
  }
}

async function spawnServer(
  databaseUrl: string,
  opts: ServeOptions,
): Promise<RunningServer | { lostPort: true; output: string; code: number | null }> {
  const { nextEnv, root, serveScript, serverNodeArgs } = await import("./build");
  const port = opts.port ?? (await freePort());
  let output = "";
  const child: ChildProcess = spawn(
    process.execPath,
    [
      ...serverNodeArgs,
      ...(opts.nodeArgs ?? []),
      serveScript,
      "start",
      "-p",
      String(port),
      "-H",
      "127.0.0.1",
    ],
    {
      cwd: root,
      env: { ...nextEnv, DATABASE_URL: databaseUrl, ...opts.env },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  child.stdout?.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (output += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  // scripts/serve.mjs logs this once its own listen succeeded.
  const listening = new RegExp(`Ready on ${url.replace(/\./g, "\\.")}(?![0-9])`);
  const deadline = Date.now() + 60_000;
  const closed = new Promise((r) => child.once("close", r));
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      await closed; // all of its output read
      // A server that lost its port says so and exits (scripts/serve.mjs): started again.
      if (output.includes("EADDRINUSE")) return { lostPort: true, output, code: child.exitCode };
      throw new Error(`server exited early (code ${child.exitCode ?? child.signalCode}):\n${output}`);
    }
    try {
      if (listening.test(output) && (await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`server did not become healthy:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    databaseUrl,
    pid: child.pid!,
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once("exit", r));
        child.kill("SIGTERM");
        await exited;
      }
    },
  };
}

if (import.meta.filename === process.argv[1] && process.argv.includes("--prepare")) {
  await prepareHere();
  process.exit(0);
} else if (import.meta.filename === process.argv[1]) {
  const { values } = parseArgs({ options: { port: { type: "string" }, keys: { type: "string" } } });
  const server = await startFreshServer({ port: values.port ? Number(values.port) : undefined });
  if (values.keys) mkdirSync(path.dirname(values.keys), { recursive: true });
  // The geodata folder lets browser tests import data into the running server.
  if (values.keys)
    writeFileSync(
      values.keys,
      JSON.stringify({ url: server.url, geodataDir: server.geodataDir, ...server.keys }),
    );
  console.log(`fresh server on ${server.url}`);
  const stop = () => void server.stop().then(() => process.exit(0));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}
