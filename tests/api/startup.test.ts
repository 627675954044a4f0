import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type RunningServer, serve } from "../../scripts/fresh-server";
import { keys } from "../support/api";

/**
 * The embedded datasets are built once per server process, at start (instrumentation.ts), and
 * shared by every route: each route bundle used to build its own copy on its first request.
 * A second server on the API tests' database, so its log can be read.
 */

let server: RunningServer;

beforeAll(async () => {
  server = await serve(inject("databaseUrl"), { env: { GEODATA_DIR: inject("geodataDir") } });
}, 60_000);

afterAll(() => server?.stop());

const DATASETS = ["the embedded countries and US states", "the US ZIP code centroids", "the GeoNames cities"];

describe("embedded datasets", () => {
  it("are loaded once per process, at start, whatever the routes that use them", async () => {
    const get = (path: string, key: string) =>
      fetch(`${server.url}${path}`, { headers: { authorization: key } }).then((r) => r.status);
    for (let i = 0; i < 50 && !DATASETS.every((d) => server.output().includes(`Loaded ${d}`)); i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(await get("/v1/context?coordinates=40.78,-73.97", keys.publishable)).toBe(200);
    expect(await get("/v1/geocode/reverse?coordinates=40.78,-73.97", keys.secret)).toBe(200);
    expect(await get("/v1/geocode/ip?ip=8.8.8.8", keys.secret)).toBe(200);
    const tracked = await fetch(`${server.url}/v1/track`, {
      method: "POST",
      headers: { authorization: keys.publishable, "content-type": "application/json" },
      body: JSON.stringify({ deviceId: "startup-test", latitude: 40.78, longitude: -73.97, accuracy: 5 }),
    });
    expect(tracked.status).toBe(200);
    // Once by the server's thread, and the regions once more by the tracking thread (which has a
    // heap of its own), whatever the routes that used them.
    const lines = server
      .output()
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as { dataset?: string; thread?: number });
    const loads = (dataset: string, onWorker: boolean) =>
      lines.filter((l) => l.dataset === dataset && (l.thread !== undefined) === onWorker).length;
    for (const dataset of DATASETS) {
      expect(loads(dataset, false), dataset).toBe(1);
      expect(loads(dataset, true), dataset).toBe(dataset === DATASETS[2] ? 0 : 1);
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
