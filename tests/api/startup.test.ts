import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type RunningServer, serve } from "../../scripts/fresh-server";
import { keys } from "../support/api";

/**
 * The embedded datasets are built once per thread that uses them, at start (instrumentation.ts),
 * or with PRELOAD_DATASETS=false on first use, and shared by every route: each route bundle used
 * to build its own copy on its first request. Servers on the API tests' database, so their logs
 * can be read.
 */

let eager: RunningServer;
let lazy: RunningServer;

beforeAll(async () => {
  const env = { GEODATA_DIR: inject("geodataDir") };
  [eager, lazy] = await Promise.all([
    serve(inject("databaseUrl"), { env: { ...env, PRELOAD_DATASETS: "true" } }),
    serve(inject("databaseUrl"), { env: { ...env, PRELOAD_DATASETS: "false" } }),
  ]);
}, 60_000);

afterAll(() => Promise.all([eager?.stop(), lazy?.stop()]));

const DATASETS = ["the embedded countries and US states", "the US ZIP code centroids", "the GeoNames cities"];

/** The datasets' loads the server logged: how many, by which thread. */
function loadsOf(server: RunningServer) {
  const lines = server
    .output()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as { dataset?: string; thread?: number });
  return (dataset: string, onWorker: boolean) =>
    lines.filter((l) => l.dataset === dataset && (l.thread !== undefined) === onWorker).length;
}

/** Context, reverse and IP geocoding, and an update: every route that reads the datasets. */
async function useDatasets(server: RunningServer, deviceId: string) {
  const get = (path: string, key: string) =>
    fetch(`${server.url}${path}`, { headers: { authorization: key } }).then(async (r) => ({
      status: r.status,
      body: (await r.json()) as Record<string, unknown>,
    }));
  const context = await get("/v1/context?coordinates=40.78,-73.97", keys.publishable);
  expect(context.status).toBe(200);
  expect(context.body.context).toMatchObject({ country: { code: "US" }, state: { code: "NY" } });
  expect((await get("/v1/geocode/reverse?coordinates=40.78,-73.97", keys.secret)).status).toBe(200);
  expect((await get("/v1/geocode/ip?ip=8.8.8.8", keys.secret)).status).toBe(200);
  const tracked = await fetch(`${server.url}/v1/track`, {
    method: "POST",
    headers: { authorization: keys.publishable, "content-type": "application/json" },
    body: JSON.stringify({ deviceId, latitude: 40.78, longitude: -73.97, accuracy: 5 }),
  });
  expect(tracked.status).toBe(200);
  const { user } = (await tracked.json()) as {
    user: { country?: { code: string }; postalCode?: { code: string } };
  };
  expect(user.country?.code).toBe("US");
}

describe("embedded datasets", () => {
  it("are loaded once per process, at start, whatever the routes that use them", async () => {
    for (let i = 0; i < 50 && !DATASETS.every((d) => eager.output().includes(`Loaded ${d}`)); i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    const before = loadsOf(eager);
    expect(DATASETS.map((d) => before(d, false))).toEqual([1, 1, 1]);
    await useDatasets(eager, "startup-eager");
    // Once by the server's thread, and the regions once more by the tracking thread (which has a
    // heap of its own), whatever the routes that used them.
    const loads = loadsOf(eager);
    for (const dataset of DATASETS) {
      expect(loads(dataset, false), dataset).toBe(1);
      expect(loads(dataset, true), dataset).toBe(dataset === DATASETS[2] ? 0 : 1);
    }
  });

  it("with PRELOAD_DATASETS=false, are loaded on first use, once, and answer the same", async () => {
    // Ready (its threads alive) without any of them.
    for (let i = 0; i < 100 && !(await fetch(`${lazy.url}/readyz`)).ok; i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect((await fetch(`${lazy.url}/readyz`)).status).toBe(200);
    const before = loadsOf(lazy);
    expect(DATASETS.map((d) => before(d, false) + before(d, true))).toEqual([0, 0, 0]);
    await useDatasets(lazy, "startup-lazy");
    await useDatasets(lazy, "startup-lazy");
    const loads = loadsOf(lazy);
    expect(loads(DATASETS[0]!, false)).toBe(1);
    expect(loads(DATASETS[0]!, true)).toBe(1);
    for (const dataset of DATASETS) {
      expect(loads(dataset, false), dataset).toBeLessThanOrEqual(1);
      expect(loads(dataset, true), dataset).toBeLessThanOrEqual(1);
    }
  });
});

describe("a bad setting", () => {
  it("stops the server at start with the variable, its value and what it must be", async () => {
    const output = await serve(inject("databaseUrl"), {
      env: { GEODATA_DIR: inject("geodataDir"), MAX_BODY_BYTES: "abc" },
    }).then(
      () => "started",
      (e: Error) => e.message,
    );
    // Its last words, a log line at fatal.
    const fatal = output
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as { level: string; msg: string })
      .find((line) => line.level === "fatal");
    expect(fatal?.msg, output).toMatch(/MAX_BODY_BYTES="abc": must be a whole number of bytes/);
  });
});
