import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { geofenceBody, randomPoint, rng } from "./geofence-data";
import { type Measurement, measure, table } from "./load";
import { startFreshServer } from "../scripts/fresh-server";

/**
 * npm run bench [-- --geofences 10000 --duration 5 --connections 16]
 *
 * Starts the production server on a fresh database, measures the no-op route (/healthz) as the
 * baseline, loads the geofences through the API, and measures get, list and search next to it.
 * Each read is measured at 1 connection (latency) and at --connections (throughput).
 */

const { values } = parseArgs({
  options: {
    geofences: { type: "string", default: "10000" },
    duration: { type: "string", default: "5" },
    connections: { type: "string", default: "16" },
  },
});
const total = Number(values.geofences);
const duration = Number(values.duration);
const connections = Number(values.connections);

async function main() {
  const server = await startFreshServer();
  const auth = { authorization: server.keys.secret, "content-type": "application/json" };
  const rows: Measurement[] = [];
  const run = async (s: Parameters<typeof measure>[0]) => {
    process.stdout.write(`  ${s.name} (${s.connections} conn)… `);
    const m = await measure(s);
    console.log(`${m.rps} req/s, p50 ${m.p50} ms, p99 ${m.p99} ms${m.errors ? `, ${m.errors} errors` : ""}`);
    rows.push(m);
    return m;
  };

  try {
    console.log(`Benchmark on ${os.cpus().length} cores, ${server.url}, ${total} geofences`);
    await run({ name: "warm-up", url: `${server.url}/healthz`, connections, duration: 2 });
    rows.length = 0;

    const noop = await run({
      name: "no-op GET /healthz",
      url: `${server.url}/healthz`,
      connections,
      duration,
    });
    await run({ name: "no-op GET /healthz", url: `${server.url}/healthz`, connections: 1, duration });
    await run({
      name: "GET /v1/config (key check)",
      url: `${server.url}/v1/config`,
      headers: auth,
      connections,
      duration,
    });

    const r = rng(42);
    const bodies = Array.from({ length: total }, (_, i) => JSON.stringify(geofenceBody(i, r)));
    let next = 0;
    await run({
      name: `POST /v1/geofences (load ${total})`,
      url: server.url,
      headers: auth,
      connections,
      amount: total,
      next: () => ({ method: "POST", path: "/v1/geofences", body: bodies[next++ % total] }),
    });

    const ids: string[] = [];
    let cursor = "";
    for (;;) {
      const res = await fetch(`${server.url}/v1/geofences?limit=1000${cursor}`, { headers: auth });
      const body = (await res.json()) as {
        meta: { hasMore?: boolean };
        geofences: { _id: string; createdAt: string }[];
      };
      ids.push(...body.geofences.map((g) => g._id));
      if (!body.meta.hasMore) break;
      cursor = `&createdBefore=${body.geofences[body.geofences.length - 1]!.createdAt}`;
    }
    if (ids.length !== total) throw new Error(`expected ${total} geofences, found ${ids.length}`);

    const pick = rng(7);
    const reads: [string, () => { path: string }][] = [
      ["GET /v1/geofences/:id", () => ({ path: `/v1/geofences/${ids[Math.floor(pick() * ids.length)]}` })],
      ["GET /v1/geofences?limit=100", () => ({ path: "/v1/geofences?limit=100" })],
      [
        "GET /v1/search/geofences (r=1000, limit 100)",
        () => {
          const [lng, lat] = randomPoint(pick);
          return { path: `/v1/search/geofences?near=${lat},${lng}&radius=1000&includeGeometry=false` };
        },
      ],
      [
        "GET /v1/search/geofences (r=10000, with geometry)",
        () => {
          const [lng, lat] = randomPoint(pick);
          return { path: `/v1/search/geofences?near=${lat},${lng}&radius=10000&limit=100` };
        },
      ],
    ];
    for (const [name, make] of reads) {
      await run({ name, url: server.url, headers: auth, connections, duration, next: make });
      await run({ name, url: server.url, headers: auth, connections: 1, duration, next: make });
    }

    const markdown = table(rows, noop.rps);
    console.log(`\n${markdown}\n`);
    const dir = path.join(import.meta.dirname, "results");
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `geofences-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
    writeFileSync(file, JSON.stringify({ total, duration, connections, rows }, null, 2));
    console.log(`Results saved to ${path.relative(process.cwd(), file)}`);
  } finally {
    await server.stop();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
