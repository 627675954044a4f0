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
    const loads = (dataset: string, where: RegExp) =>
      server
        .output()
        .split("\n")
        .filter((line) => line.startsWith(`Loaded ${dataset} in `) && where.test(line)).length;
    for (const dataset of DATASETS) {
      expect(loads(dataset, /ms$/), dataset).toBe(1);
      expect(loads(dataset, /\(worker thread \d+\)$/), dataset).toBe(dataset === DATASETS[2] ? 0 : 1);
    }
  });
});

describe("a bad setting", () => {
  it("stops the server at start with the variable, its value and what it must be", async () => {
    await expect(
      serve(inject("databaseUrl"), { env: { GEODATA_DIR: inject("geodataDir"), MAX_BODY_BYTES: "abc" } }),
    ).rejects.toThrow(/MAX_BODY_BYTES="abc": must be a whole number of bytes/);
  });
});
