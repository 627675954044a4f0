import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { type RunningServer, serve, startFreshServer } from "../scripts/fresh-server";
import { AREA, DENSE_AREA } from "./geofence-data";
import { geofenceSuite } from "./geofences";
import {
  type Measurement,
  type Scenario,
  databaseCpu,
  databaseCpuBetween,
  measure,
  table,
  threadsText,
} from "./load";
import { type Bench, WORKLOADS, type Workload } from "./suite";
import { trackingSuite } from "./tracking";
import { geodataSuite } from "./geodata";
import { startupSuite } from "./startup";
import { geocodingSuite } from "./geocoding";
import { routingSuite } from "./routing";
import { transitSuite } from "./transit";
import { importSuite } from "./import";
import { observabilitySuite } from "./observability";
import { overviewSuite } from "./overview";
import { type PacedMessage, compareEngines, compareSetting } from "./compare";

const USAGE = `npm run bench [-- SUITE...] [--geofences 10000] [--users 100000] [--duration 5] [--connections 16]
                 [--rounds 5] [--profile DIR] [--dense] [--max-radius M] [--processes 1] [--webhooks] [--trips]
                 [--compare] [--compare-setting NAME=VALUE] [--workload short-moves,first-seen,long-jumps] [--pg-stats]

Suites: geofences, tracking, geodata, geocoding, routing, transit, startup, import, observability, overview (default: geofences and tracking). Each starts the production server on a fresh
database, measures the no-op route (GET /healthz) as the baseline in the same run, then its
endpoints at --connections (throughput) and at 1 connection (latency), with the server's CPU per request
(and PostgreSQL's, when TEST_POSTGRES_URL names one on this machine) and each of its threads' CPU and
busy time per request (http, tracking…: its /metrics' location_thread_cpu_seconds_total, _busy_). Tracking measures the workloads
users send (--workload, default all): short moves (known devices, up to 200 m), first-seen devices
(a new device each update, anywhere) and long jumps (known devices reappearing anywhere), the last two
with the body Radar's Android SDK sends. Before the rounds, a sample of each workload's updates runs in-process
and reports the events an update makes and, on SQLite, the pages it writes to the WAL by table and index.
Each workload warms up (not counted), then --rounds rounds
alternate the key-checked GET /v1/config, an invalid POST (the floor, every answer checked to be 400)
and the workloads, compared within each round; a round with an unexpected answer or a socket error is
reported as failed, not counted; on PostgreSQL (after VACUUM ANALYZE of the seeded data) one more round
runs once autovacuum has analyzed what the rounds wrote; --pg-stats reports PostgreSQL's statements over
the rounds (pg_stat_statements, when the server preloads it) and its backends' states sampled every 50 ms. --dense packs the
geofences (50–200 m) and users into 79 km² (about 6 geofences overlap at a point) instead of a metro area;
--max-radius sets the geofences' largest radius (dense with 500: about 30 overlap at a point). --profile writes a CPU
profile of the server (node --cpu-prof) into DIR when it stops; open it in Chrome DevTools.
overview seeds the tracking layout and times each figure of the overview page, then GET /api/overview
against GET /v1/config one request at a time.
--only TEXT measures only the scenarios whose name holds TEXT (beside the no-op route and any loading).
--trips (tracking) tracks users on car trips (the shared Andorra extract imported) against users on
none, in the same rounds (docs/trips.md). --webhooks (tracking) also tracks with two enabled webhooks whose receivers (here) answer at once,
in the same rounds, and reports the throughput ratio and the delivery lag (docs/webhooks.md).
geocoding --extract FILE measures on another extract holding Liechtenstein (the synthetic copies below);
--bundle FILE on that extract as npm run import already wrote it (GEODATA_DIR=DIR npm run import -- FILE), not imported again.
import --synthetic N[,N…] [--source liechtenstein-2021] writes N copies of a shared extract side by side (ids
offset, towns renamed per copy; kept in node_modules/.cache/synthetic) and imports each as npm run import does,
with the time and peak memory of each step; needs ../shared/data.
--processes N starts N app processes on the one database and splits the connections among them
(what a balancer does); figures are their sums, latencies the worst of them. The database is
SQLite, or PostgreSQL when TEST_POSTGRES_URL names a server (a fresh database is made on it).
--compare (tracking, with TEST_POSTGRES_URL) runs SQLite and PostgreSQL in one run, each on a server
and data of its own, their rounds alternating (one idle while the other is measured), after a
warm-up of each; it reports PostgreSQL's throughput against SQLite's round for round, and the CPU
per update of each (app, and PostgreSQL's own). --compare-setting NAME=VALUE (tracking) does the same with
two servers on the same engine, one started with the setting and one as configured: what a setting
costs, round for round (METRICS=off: the metrics; LOG_LEVEL=warn: the access log).`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    geofences: { type: "string", default: "10000" },
    users: { type: "string", default: "100000" },
    duration: { type: "string", default: "5" },
    connections: { type: "string", default: "16" },
    rounds: { type: "string", default: "5" },
    workload: { type: "string", default: WORKLOADS.join(",") },
    "pg-stats": { type: "boolean", default: false },
    profile: { type: "string" },
    dense: { type: "boolean", default: false },
    "max-radius": { type: "string" },
    processes: { type: "string", default: "1" },
    only: { type: "string" },
    webhooks: { type: "boolean", default: false },
    trips: { type: "boolean", default: false },
    synthetic: { type: "string", default: "1,20" },
    source: { type: "string", default: "liechtenstein-2021" },
    extract: { type: "string" },
    bundle: { type: "string" },
    compare: { type: "boolean", default: false },
    "compare-setting": { type: "string" },
    // A side of --compare (bench/compare.ts): waits for the parent before each round.
    paced: { type: "boolean", default: false },
    help: { type: "boolean", short: "h" },
  },
});
// The benchmarks' fresh server is on PostgreSQL when TEST_POSTGRES_URL names one.
if (process.env.TEST_POSTGRES_URL) process.env.TEST_ENGINE = "postgresql";
const suites = positionals.length ? positionals : ["geofences", "tracking"];
if (
  values.help ||
  values.workload.split(",").some((w) => !(WORKLOADS as readonly string[]).includes(w)) ||
  suites.some(
    (s) =>
      ![
        "geofences",
        "tracking",
        "geodata",
        "geocoding",
        "routing",
        "transit",
        "startup",
        "import",
        "observability",
        "overview",
      ].includes(s),
  )
) {
  console.log(USAGE);
  process.exit(values.help ? 0 : 1);
}

async function runSuite(name: string): Promise<void> {
  // Webhook receivers listen on this machine (--webhooks).
  if (values.webhooks) process.env.WEBHOOKS_ALLOW_PRIVATE = "true";
  const server = await startFreshServer({
    ...(values.profile && { nodeArgs: ["--cpu-prof", "--cpu-prof-dir", path.resolve(values.profile)] }),
    ...(values.webhooks && { env: { WEBHOOKS_ALLOW_PRIVATE: "true" } }),
  });
  const others: RunningServer[] = [];
  for (let i = 1; i < Number(values.processes); i++) {
    others.push(
      await serve(server.databaseUrl, {
        env: { GEODATA_DIR: server.geodataDir, ...(values.webhooks && { WEBHOOKS_ALLOW_PRIVATE: "true" }) },
      }),
    );
  }
  // Stopped, or left by --compare's parent (the other side failed): the servers go too, not left
  // running unseen, holding a core. Removed at the end: a "disconnect" listener keeps a side's
  // IPC channel, and so the side, alive.
  const abandon = () => {
    void Promise.all([...others, server].map((s) => s.stop())).finally(() => process.exit(1));
  };
  const signals = ["SIGTERM", "SIGINT"] as const;
  for (const signal of signals) process.once(signal, abandon);
  if (values.paced) process.once("disconnect", abandon);
  const rows: Measurement[] = [];
  const notes: string[] = [];
  const duration = Number(values.duration);
  const connections = Number(values.connections);
  const run = async (s: Scenario) => {
    process.stdout.write(`  ${s.name} (${s.connections} conn)… `);
    const m = await measureAcross([server, ...others], s);
    const threads = threadsText(m);
    const cpu =
      (m.cpuMs === undefined ? "" : `, server CPU ${m.cpuMs} ms/req`) +
      (m.dbCpuMs === undefined ? "" : `, PostgreSQL CPU ${m.dbCpuMs} ms/req`) +
      (threads ? ` (threads' CPU (busy): ${threads} ms/req)` : "");
    console.log(
      `${m.rps} req/s, p50 ${m.p50} ms, p99 ${m.p99} ms${cpu}${m.errors ? `, ${m.errors} errors` : ""}`,
    );
    rows.push(m);
    if (values.paced) process.send!({ measured: m } satisfies PacedMessage);
    return m;
  };
  const bench: Bench = {
    server,
    duration,
    connections,
    rounds: Number(values.rounds),
    area: {
      ...(values.dense ? DENSE_AREA : AREA),
      ...(values["max-radius"] && { maxRadius: Number(values["max-radius"]) }),
    },
    run,
    note: (line) => notes.push(line),
    webhooks: values.webhooks,
    trips: values.trips,
    workloads: values.workload.split(",") as Workload[],
    pgStats: values["pg-stats"],
    ...(values.paced && { pace }),
    async runBoth(s) {
      if (values.only && !s.name.includes(values.only)) return;
      await run({ ...s, connections, duration });
      await run({ ...s, connections: 1, duration });
    },
  };
  try {
    const engine = process.env.TEST_POSTGRES_URL ? "PostgreSQL" : "SQLite";
    console.log(
      `\n${name}: ${os.cpus().length} cores, ${engine}, ${1 + others.length} app process(es), ${server.url}`,
    );
    await measure({ name: "warm-up", url: `${server.url}/healthz`, connections, duration: 2 });
    const noop = await run({
      name: "no-op GET /healthz",
      url: `${server.url}/healthz`,
      connections,
      duration,
    });
    await run({ name: "no-op GET /healthz", url: `${server.url}/healthz`, connections: 1, duration });
    if (name === "geofences") {
      const auth = { authorization: server.keys.secret };
      await run({
        name: "GET /v1/config (key check)",
        url: `${server.url}/v1/config`,
        headers: auth,
        connections,
        duration,
      });
      await geofenceSuite(bench, Number(values.geofences));
    } else if (name === "geodata") {
      await geodataSuite(bench);
    } else if (name === "geocoding") {
      await geocodingSuite(bench, values.extract, values.bundle);
    } else if (name === "routing") {
      await routingSuite(bench);
    } else if (name === "transit") {
      await transitSuite(bench);
    } else if (name === "overview") {
      await overviewSuite(bench, Number(values.geofences), Number(values.users));
    } else {
      await trackingSuite(bench, Number(values.geofences), Number(values.users));
    }
    const markdown = table(rows, noop.rps);
    console.log(`\n${markdown}\n`);
    for (const line of notes) console.log(`${line}\n`);
    const dir = path.join(import.meta.dirname, "results");
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `${name}-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
    writeFileSync(file, JSON.stringify({ suite: name, engine, ...values, rows, notes }, null, 2));
    console.log(`Results saved to ${path.relative(process.cwd(), file)}`);
  } finally {
    for (const signal of signals) process.off(signal, abandon);
    process.off("disconnect", abandon);
    for (const other of others) await other.stop();
    await server.stop();
  }
}

/** A side of --compare: says it is ready for `step`, and waits until the parent says go. */
function pace(step: string): Promise<void> {
  return new Promise((resolve) => {
    process.once("message", () => resolve());
    process.send!({ ready: step } satisfies PacedMessage);
  });
}

/**
 * A scenario on several app processes at once: the connections split among them, as a balancer
 * would; throughput and CPU summed, latency percentiles the worst process's.
 */
async function measureAcross(servers: RunningServer[], s: Scenario): Promise<Measurement> {
  const [first] = servers;
  const shares = servers
    .map((sv, i) => ({
      sv,
      connections: Math.floor(s.connections / servers.length) + (i < s.connections % servers.length ? 1 : 0),
    }))
    .filter((x) => x.connections > 0);
  const dbBefore = databaseCpu();
  const parts = await Promise.all(
    shares.map(({ sv, connections }) =>
      measure({ ...s, url: s.url.replace(first!.url, sv.url), connections }, sv.pid),
    ),
  );
  const dbAfter = databaseCpu();
  const total = parts.reduce((n, p) => n + p.requests, 0);
  const db =
    dbBefore !== undefined && dbAfter !== undefined && total
      ? { dbCpuMs: Math.round((100_000 * databaseCpuBetween(dbBefore, dbAfter)) / total) / 100 }
      : {};
  if (parts.length === 1) return { ...parts[0]!, ...db };
  const requests = parts.reduce((n, p) => n + p.requests, 0);
  const cpu = parts.every((p) => p.cpuMs !== undefined)
    ? parts.reduce((t, p) => t + p.cpuMs! * p.requests, 0) / Math.max(1, requests)
    : undefined;
  return {
    name: s.name,
    connections: s.connections,
    requests,
    rps: parts.reduce((n, p) => n + p.rps, 0),
    p50: Math.max(...parts.map((p) => p.p50)),
    p99: Math.max(...parts.map((p) => p.p99)),
    errors: parts.reduce((n, p) => n + p.errors, 0),
    ...(cpu !== undefined ? { cpuMs: Math.round(cpu * 100) / 100 } : {}),
    ...db,
    ...(parts.every((p) => p.threadMs) ? { threadMs: threadsAcross(parts, requests) } : {}),
  };
}

/** The processes' threads per request, each thread's summed over the processes. */
function threadsAcross(parts: Measurement[], requests: number): NonNullable<Measurement["threadMs"]> {
  const sum: NonNullable<Measurement["threadMs"]> = {};
  const per = (ms: number) => Math.round((100 * ms) / Math.max(1, requests)) / 100;
  for (const p of parts) {
    for (const [thread, t] of Object.entries(p.threadMs!)) {
      const s = (sum[thread] ??= { busy: 0 });
      s.busy += t.busy * p.requests;
      if (t.cpu !== undefined) s.cpu = (s.cpu ?? 0) + t.cpu * p.requests;
    }
  }
  for (const t of Object.values(sum)) {
    t.busy = per(t.busy);
    if (t.cpu !== undefined) t.cpu = per(t.cpu);
  }
  return sum;
}

if (values.compare || values["compare-setting"]) {
  if (suites.join() !== "tracking" || values.webhooks || values.trips || values.processes !== "1") {
    console.error("--compare runs the tracking suite alone (without --webhooks, --trips or --processes)");
    process.exit(1);
  }
  const flags = process.argv
    .slice(2)
    .filter(
      (f, i, all) =>
        !["--compare", "--compare-setting", "tracking"].includes(f) && all[i - 1] !== "--compare-setting",
    );
  if (values["compare-setting"])
    await compareSetting(values["compare-setting"], flags, Number(values.rounds));
  else await compareEngines(flags, Number(values.rounds));
} else if (suites.length > 1) {
  // Each suite in a process of its own: the in-process clients a suite opens (the database, the
  // imports) would otherwise still point at the previous suite's server, whose folder is gone.
  const flags = [...process.argv.slice(2)];
  for (const name of positionals) flags.splice(flags.indexOf(name), 1);
  for (const name of suites) {
    const child = spawnSync(process.execPath, [...process.execArgv, process.argv[1]!, name, ...flags], {
      stdio: "inherit",
    });
    if (child.status !== 0) process.exit(child.status ?? 1);
  }
} else {
  const [name] = suites;
  if (name === "startup") await startupSuite();
  else if (name === "observability") observabilitySuite();
  else if (name === "import") await importSuite({ synthetic: values.synthetic, source: values.source });
  else await runSuite(name!);
}
