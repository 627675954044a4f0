import { writeFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, inject } from "vitest";
import { type FreshServer, type RunningServer, serve, startFreshServer } from "../../scripts/fresh-server";
import { keys } from "../support/api";

/**
 * What an operator runs the service with (docs/deployment.md): the readiness probe, request ids
 * and JSON access lines, and GET /metrics. Servers of their own on the API tests' database, so
 * their settings and their logs are theirs.
 */

const baseUrl = inject("baseUrl");
let watched: RunningServer;
let brokenBundle: RunningServer;
const brokenDir = mkdtempSync(path.join(tmpdir(), "location-broken-"));
const TOKEN = "metrics-token-for-the-tests";

beforeAll(async () => {
  writeFileSync(path.join(brokenDir, "broken.sqlite"), "not a bundle");
  [watched, brokenBundle] = await Promise.all([
    serve(inject("databaseUrl"), {
      env: { GEODATA_DIR: inject("geodataDir"), TRUST_PROXY: "1", METRICS_TOKEN: TOKEN, LOG_FORMAT: "json" },
    }),
    serve(inject("databaseUrl"), { env: { GEODATA_DIR: brokenDir, TRUST_PROXY: "1" } }),
  ]);
}, 90_000);

afterAll(async () => {
  await watched?.stop();
  await brokenBundle?.stop();
  rmSync(brokenDir, { recursive: true, force: true });
});

interface Readiness {
  status: string;
  checks: Record<string, string>;
  failing?: { name: string; message: string }[];
}

/**
 * GET /readyz until its threads are started (a few seconds after the process listens) and it
 * answers `status`.
 */
async function readyz(url: string, status: number): Promise<{ status: number; body: Readiness }> {
  for (let i = 0; ; i++) {
    const res = await fetch(`${url}/readyz`);
    const body = (await res.json()) as Readiness;
    const started = body.checks.trackingThread === "ok" && body.checks.webhookSender === "ok";
    if ((res.status === status && started) || i >= 150) return { status: res.status, body };
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The server's JSON log lines (the lines that are not JSON are Next.js's own). */
function logLines(server: RunningServer): Record<string, unknown>[] {
  return server
    .output()
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

async function accessLine(server: RunningServer, reqId: string): Promise<Record<string, unknown>> {
  for (let i = 0; i < 50; i++) {
    const line = logLines(server).find((l) => l.reqId === reqId && l.msg === "request");
    if (line) return line;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no access line for ${reqId}:\n${server.output()}`);
}

describe("GET /readyz", () => {
  it("is ready when the database, its migrations, the bundles and the threads are", async () => {
    const { status, body } = await readyz(baseUrl, 200);
    expect(status).toBe(200);
    expect(body).toEqual({
      status: "ready",
      checks: { database: "ok", migrations: "ok", bundles: "ok", trackingThread: "ok", webhookSender: "ok" },
    });
  });

  it("answers 503 naming a bundle of the geodata folder that cannot be opened", async () => {
    const { status, body } = await readyz(brokenBundle.url, 503);
    expect(status).toBe(503);
    expect(body.status).toBe("not ready");
    expect(body.failing).toEqual([
      { name: "bundles", message: expect.stringMatching(/^broken\.sqlite cannot be opened/) },
    ]);
    expect(body.checks.database).toBe("ok");
    // The process itself answers.
    expect((await fetch(`${brokenBundle.url}/healthz`)).status).toBe(200);
  });
});

describe("a database a migration is missing from", () => {
  let fresh: FreshServer;
  beforeAll(async () => {
    fresh = await startFreshServer();
  }, 60_000);
  afterAll(() => fresh?.stop());

  it("is not ready, and says which migration and what to run", async () => {
    expect((await readyz(fresh.url, 200)).status).toBe(200);
    const name = await forgetLastMigration(fresh.databaseUrl);
    const { status, body } = await readyz(fresh.url, 503);
    expect(status).toBe(503);
    expect(body.failing).toEqual([
      {
        name: "migrations",
        message: `1 migration not applied (${name}): run npm start or npm run db:migrate`,
      },
    ]);
  });
});

/** Removes the record of the latest migration applied, as if the database were a release older. */
async function forgetLastMigration(databaseUrl: string): Promise<string> {
  if (databaseUrl.startsWith("file:")) {
    const { default: Database } = await import("better-sqlite3");
    const db = new Database(databaseUrl.slice("file:".length));
    try {
      const name = db
        .prepare(`SELECT migration_name FROM _prisma_migrations ORDER BY migration_name DESC LIMIT 1`)
        .pluck()
        .get() as string;
      db.prepare(`DELETE FROM _prisma_migrations WHERE migration_name = ?`).run(name);
      return name;
    } finally {
      db.close();
    }
  }
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(
      `DELETE FROM "_migrations" WHERE "name" = (SELECT max("name") FROM "_migrations") RETURNING "name"`,
    );
    return rows[0]!.name;
  } finally {
    await client.end();
  }
}

describe("request ids and access lines", () => {
  it("echoes the caller's X-Request-Id, or makes one, on every answer", async () => {
    const sent = await fetch(`${watched.url}/v1/geofences`, {
      headers: { authorization: keys.secret, "x-request-id": "caller-id.42" },
    });
    expect(sent.headers.get("x-request-id")).toBe("caller-id.42");
    const made = await fetch(`${watched.url}/v1/geofences`, { headers: { authorization: "nope" } });
    expect(made.status).toBe(401);
    expect(made.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    // An id that could forge log lines is not taken.
    const odd = await fetch(`${watched.url}/healthz`, { headers: { "x-request-id": 'a" b' } });
    expect(odd.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    // Browsers may read it.
    expect(sent.headers.get("access-control-expose-headers")).toMatch(/x-request-id/i);
  });

  it("logs one JSON line per request: route template, status, duration, the key's id, never the key or a position", async () => {
    const reqId = "access-line-test";
    const res = await fetch(`${watched.url}/v1/track`, {
      method: "POST",
      headers: { authorization: keys.publishable, "content-type": "application/json", "x-request-id": reqId },
      body: JSON.stringify({ deviceId: "ops-access", latitude: 48.8584, longitude: 2.2945, accuracy: 5 }),
    });
    expect(res.status).toBe(200);
    const line = await accessLine(watched, reqId);
    expect(line).toMatchObject({ level: "info", method: "POST", route: "/v1/track", status: 200 });
    expect(line.ms).toEqual(expect.any(Number));
    expect(line.keyId).toMatch(/^[0-9a-f]{24}$/);
    const byId = await fetch(`${watched.url}/v1/geofences/nothing-here`, {
      headers: { authorization: keys.secret, "x-request-id": "access-line-404" },
    });
    expect(byId.status).toBe(404);
    expect(await accessLine(watched, "access-line-404")).toMatchObject({
      route: "/v1/geofences/[id]",
      status: 404,
    });
    const log = watched.output();
    expect(log).not.toContain(keys.publishable);
    expect(log).not.toContain(keys.secret);
    expect(log).not.toContain("48.8584");
    // Probes are not logged at info.
    await fetch(`${watched.url}/readyz`, { headers: { "x-request-id": "probe-line" } });
    await fetch(`${watched.url}/v1/geofences`, {
      headers: { authorization: keys.secret, "x-request-id": "after-probe" },
    });
    await accessLine(watched, "after-probe");
    expect(logLines(watched).some((l) => l.reqId === "probe-line")).toBe(false);
  });
});

describe("GET /metrics", () => {
  const scrape = (headers: Record<string, string> = {}) =>
    fetch(`${watched.url}/metrics`, { headers }).then(async (r) => ({
      status: r.status,
      text: await r.text(),
    }));

  /** A sample's value in Prometheus's text format, 0 when absent. */
  const sample = (text: string, name: string) => {
    const line = text.split("\n").find((l) => l.startsWith(`${name} `));
    return line ? Number(line.slice(name.length + 1)) : 0;
  };

  it("counts requests by route template, tracking updates and events by type, with the threads' counts", async () => {
    const before = await scrape();
    expect(before.status).toBe(200);
    const track = await fetch(`${watched.url}/v1/track`, {
      method: "POST",
      headers: { authorization: keys.publishable, "content-type": "application/json" },
      body: JSON.stringify({
        deviceId: `ops-metrics-${Date.now()}`,
        latitude: 40.78,
        longitude: -73.97,
        accuracy: 5,
      }),
    });
    expect(track.status).toBe(200);
    const after = await scrape();
    expect(after.text).toMatch(/^# TYPE http_request_duration_seconds histogram$/m);
    expect(sample(after.text, "location_tracking_updates_total")).toBe(
      sample(before.text, "location_tracking_updates_total") + 1,
    );
    const tracked = 'http_request_duration_seconds_count{route="/v1/track",method="POST",status="200"}';
    expect(sample(after.text, tracked)).toBe(sample(before.text, tracked) + 1);
    // A first update in the US enters its country: an event made on the tracking thread.
    const country = 'location_events_total{type="user.entered_region_country"}';
    expect(sample(after.text, country)).toBeGreaterThan(sample(before.text, country));
    expect(sample(after.text, "location_tracking_batch_size_count")).toBeGreaterThan(0);
    for (const name of [
      "process_cpu_seconds_total",
      "nodejs_eventloop_lag_p99_seconds",
      "nodejs_heap_size_used_bytes",
      'location_webhook_outbox_depth{stage="outbox"}',
      "location_key_cache_hits_total",
    ]) {
      expect(after.text, name).toMatch(new RegExp(`^${name.replace(/[{}"]/g, "\\$&")} `, "m"));
    }
  });

  it("says how busy each thread was and the CPU it used: the server's and the tracking thread's grow with the updates they handle", async () => {
    const names = ["busy", "cpu"].flatMap((m) =>
      ["http", "tracking"].map((t) => `location_thread_${m}_seconds_total{thread="${t}"}`),
    );
    const started = Date.now();
    const before = await scrape();
    expect(before.text).toMatch(/^# TYPE location_thread_busy_seconds_total counter$/m);
    expect(before.text).toMatch(/^# TYPE location_thread_cpu_seconds_total counter$/m);
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        fetch(`${watched.url}/v1/track`, {
          method: "POST",
          headers: { authorization: keys.publishable, "content-type": "application/json" },
          body: JSON.stringify({
            deviceId: `ops-busy-${Date.now()}-${i}`,
            latitude: 40.6 + i / 1000,
            longitude: -73.9,
            accuracy: 5,
          }),
        }).then((r) => r.status),
      ),
    );
    expect(answers.every((s) => s === 200)).toBe(true);
    const after = await scrape();
    const elapsed = (Date.now() - started) / 1000;
    for (const name of names) {
      const grew = sample(after.text, name) - sample(before.text, name);
      expect(grew, name).toBeGreaterThan(0);
      // A thread is busy or waiting: never busier, nor on a core longer, than the time that passed.
      expect(grew, name).toBeLessThanOrEqual(elapsed);
    }
  });

  it("is open to the loopback only, and to others with the bearer token", async () => {
    // Behind the trusted proxy (TRUST_PROXY=1), the caller is the address it forwarded.
    const outside = { "x-forwarded-for": "203.0.113.9" };
    expect((await scrape(outside)).status).toBe(401);
    expect((await scrape({ ...outside, authorization: "Bearer wrong-token-of-the-same-size" })).status).toBe(
      401,
    );
    const allowed = await scrape({ ...outside, authorization: `Bearer ${TOKEN}` });
    expect(allowed.status).toBe(200);
    expect(allowed.text).toContain("location_tracking_updates_total");
    expect((await scrape({ "x-forwarded-for": "127.0.0.1" })).status).toBe(200);
    // Without METRICS_TOKEN, a caller from elsewhere is told how to open it.
    const closed = await fetch(`${brokenBundle.url}/metrics`, { headers: outside });
    expect(closed.status).toBe(403);
    expect(((await closed.json()) as { meta: { message: string } }).meta.message).toMatch(/METRICS_TOKEN/);
  });
});
