import { afterAll, beforeAll, describe, expect, it, inject } from "vitest";
import { type RunningServer, serve } from "../../scripts/fresh-server";
import { keys } from "../support/api";

/**
 * TRUST_PROXY=N: behind N reverse proxies that append to X-Forwarded-For, the caller's address is
 * the N-th from the right (counting the connection's); what lies further left is the caller's own
 * claim. Servers on the same database, started with the setting.
 */

let proxied: RunningServer;
let twice: RunningServer;

beforeAll(async () => {
  const env = { GEODATA_DIR: inject("geodataDir") };
  [proxied, twice] = await Promise.all([
    serve(inject("databaseUrl"), { env: { ...env, TRUST_PROXY: "true" } }),
    serve(inject("databaseUrl"), { env: { ...env, TRUST_PROXY: "2" } }),
  ]);
}, 60_000);

afterAll(async () => {
  await proxied?.stop();
  await twice?.stop();
});

const ipOf = (url: string, forwardedFor?: string) =>
  fetch(`${url}/v1/geocode/ip`, {
    headers: { authorization: keys.secret, ...(forwardedFor && { "x-forwarded-for": forwardedFor }) },
  }).then(async (r) => ({
    status: r.status,
    body: (await r.json()) as { ip?: string; meta: { message?: string } },
  }));

describe("TRUST_PROXY", () => {
  it("takes the caller's address from the proxy's X-Forwarded-For, from the right", async () => {
    // The proxy appended the address it was called from (8.8.8.8) to what the caller sent.
    const res = await ipOf(proxied.url, "1.1.1.1, 8.8.8.8");
    expect(res.status).toBe(200);
    expect(res.body.ip).toBe("8.8.8.8");
    // Two proxies: the outer one's entry, then the inner one's.
    const two = await ipOf(twice.url, "1.1.1.1, 8.8.8.8, 10.0.0.1");
    expect(two.body.ip).toBe("8.8.8.8");
    // Without the header, the connection's address (loopback here: no location).
    const direct = await ipOf(proxied.url);
    expect(direct.status).toBe(404);
    expect(direct.body.meta.message).toMatch(/127\.0\.0\.1|::1/);
  });

  it("is off by default: the header sent by a caller is ignored", async () => {
    const res = await ipOf(inject("baseUrl"), "8.8.8.8");
    expect(res.status).toBe(404);
    expect(res.body.meta.message).toMatch(/127\.0\.0\.1|::1/);
  });
});

describe("autocomplete without near (radar-sdk-js calls it so)", () => {
  const autocomplete = (url: string, forwardedFor?: string) =>
    fetch(`${url}/v1/search/autocomplete?query=Neu&layers=locality`, {
      headers: { authorization: keys.secret, ...(forwardedFor && { "x-forwarded-for": forwardedFor }) },
    }).then(async (r) => ({
      status: r.status,
      body: (await r.json()) as { addresses: { countryCode: string; distance?: number }[] },
    }));

  it("is biased by the caller's IP location, and by nothing when the address has none", async () => {
    const german = await autocomplete(proxied.url, "217.0.0.1");
    expect(german.status).toBe(200);
    expect(german.body.addresses[0]!.countryCode).toBe("DE");
    expect(german.body.addresses.every((a) => typeof a.distance === "number")).toBe(true);
    // Loopback has no location: results by relevance alone, without distances.
    const direct = await autocomplete(proxied.url);
    expect(direct.status).toBe(200);
    expect(direct.body.addresses.length).toBeGreaterThan(0);
    expect(direct.body.addresses.some((a) => "distance" in a)).toBe(false);
  });
});
