import { afterAll, beforeAll, describe, expect, it, inject } from "vitest";
import { type RunningServer, serve } from "../../scripts/fresh-server";
import { keys } from "../support/api";

/**
 * TRUST_PROXY=true: behind a reverse proxy that sets X-Forwarded-For, its first hop is the
 * caller's address. A second server on the same database, started with the setting.
 */

let proxied: RunningServer;

beforeAll(async () => {
  proxied = await serve(inject("databaseUrl"), {
    env: { TRUST_PROXY: "true", GEODATA_DIR: inject("geodataDir") },
  });
}, 60_000);

afterAll(() => proxied?.stop());

const ipOf = (url: string, forwardedFor?: string) =>
  fetch(`${url}/v1/geocode/ip`, {
    headers: { authorization: keys.secret, ...(forwardedFor && { "x-forwarded-for": forwardedFor }) },
  }).then(async (r) => ({
    status: r.status,
    body: (await r.json()) as { ip?: string; meta: { message?: string } },
  }));

describe("TRUST_PROXY", () => {
  it("takes the caller's address from the proxy's X-Forwarded-For", async () => {
    const res = await ipOf(proxied.url, "8.8.8.8, 10.0.0.1");
    expect(res.status).toBe(200);
    expect(res.body.ip).toBe("8.8.8.8");
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
