import { describe, expect, inject, it } from "vitest";
import { FRESH_ACCOUNTS, FRESH_PASSWORD, serve } from "../../scripts/fresh-server";
import { api, expectError, keys, signIn as signInAs, unique } from "../support/api";
import { metersFrom } from "../support/geo";

const baseUrl = inject("baseUrl");

const signIn = (email: string, password = FRESH_PASSWORD) => signInAs(email, password);

const as = (cookie: string, extra: Record<string, string> = {}) => ({
  key: null,
  headers: { cookie, ...extra },
});

const circle = () => ({
  description: "drawn",
  type: "circle",
  coordinates: [-100.1, 40.1],
  radius: 100,
  tag: "dash",
  externalId: unique("x"),
});

describe("dashboard sign-in", () => {
  it("refuses a wrong password with a clear 401 and sets no cookie", async () => {
    const res = await api("POST", "/api/session", {
      key: null,
      json: { email: FRESH_ACCOUNTS.analyst, password: "wrong-password" },
    });
    expectError(res, 401, undefined, /wrong email or password/);
    expect(res.headers.get("set-cookie")).toBeNull();
    expectError(await api("POST", "/api/session", { key: null, json: { email: "a@b" } }), 400, "password");
  });

  it("throttles repeated failures for an account from one address, even when the password is then right", async () => {
    const { account } = (
      await api("POST", "/api/accounts", {
        ...as(await signIn(FRESH_ACCOUNTS.admin)),
        json: { email: `${unique("t")}@example.test`, role: "reviewer", password: FRESH_PASSWORD },
      })
    ).body as unknown as { account: { email: string } };
    for (let i = 0; i < 5; i++) {
      const res = await api("POST", "/api/session", {
        key: null,
        json: { email: account.email, password: "nope" },
      });
      expect(res.status).toBe(401);
    }
    const blocked = await api("POST", "/api/session", {
      key: null,
      json: { email: account.email, password: FRESH_PASSWORD },
    });
    expectError(blocked, 429, undefined, /too many failed sign-ins/);
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("shares the throttle between app processes on one database", async () => {
    const { account } = (
      await api("POST", "/api/accounts", {
        ...as(await signIn(FRESH_ACCOUNTS.admin)),
        json: { email: `${unique("t")}@example.test`, role: "reviewer", password: FRESH_PASSWORD },
      })
    ).body as unknown as { account: { email: string } };
    const other = await serve(inject("databaseUrl"), { env: { GEODATA_DIR: inject("geodataDir") } });
    try {
      const attempt = (url: string, password: string) =>
        fetch(`${url}/api/session`, {
          method: "POST",
          headers: { "content-type": "application/json", origin: url },
          body: JSON.stringify({ email: account.email, password }),
        });
      // The other process answers its first sign-in at once, not after loading the route (seconds
      // on a busy machine, past the 2 s wait the fifth failure makes).
      expect((await fetch(`${other.url}/api/session`)).status).toBe(401);
      // Three failures here and two on the other process: the fifth makes this address wait 2 s
      // from the first, on both. On a machine too busy to make the attempts within those 2 s the
      // wait is over before it can be seen (a right password then signs in and clears the count),
      // so the attempts are made again, up to five times, until they fit.
      let shown = false;
      for (let round = 0; round < 5 && !shown; round++) {
        const started = performance.now();
        for (let i = 0; i < 5; i++)
          expect((await attempt(i < 3 ? baseUrl : other.url, "nope")).status).toBe(401);
        const onOther = (await attempt(other.url, FRESH_PASSWORD)).status;
        const onThis = (await attempt(baseUrl, FRESH_PASSWORD)).status;
        if (performance.now() - started < 2000) {
          expect([onOther, onThis]).toEqual([429, 429]);
          shown = true;
        } else if (onThis === 429) {
          // Still held: signing in once the wait is over clears the count for the next round.
          await expect
            .poll(async () => (await attempt(baseUrl, FRESH_PASSWORD)).status, {
              timeout: 30_000,
              interval: 1000,
            })
            .toBe(200);
        }
      }
      expect(shown, "five failures and two attempts never fit in 2 s").toBe(true);
    } finally {
      await other.stop();
    }
  });

  it("sets an HTTP-only, SameSite=Strict cookie", async () => {
    const res = await fetch(`${baseUrl}/api/session`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: baseUrl },
      body: JSON.stringify({ email: FRESH_ACCOUNTS.reviewer, password: FRESH_PASSWORD }),
    });
    const cookie = res.headers.get("set-cookie")!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).not.toContain(FRESH_PASSWORD);
  });

  it("tells who is signed in, and signing out ends the session", async () => {
    const cookie = await signIn(FRESH_ACCOUNTS.reviewer);
    const me = await api("GET", "/api/session", as(cookie));
    expect(me.status).toBe(200);
    expect(me.body.account).toMatchObject({ email: FRESH_ACCOUNTS.reviewer, role: "reviewer" });
    expect(me.body.live).toBe(false);
    expect((await api("DELETE", "/api/session", as(cookie))).status).toBe(200);
    expectError(await api("GET", "/api/session", as(cookie)), 401);
    expectError(await api("GET", "/v1/events", as(cookie)), 401, undefined, /session has ended/);
  });
});

describe("roles on the API, called directly with a session", () => {
  it("lets an analyst create geofences in the test world, seen by the test secret key", async () => {
    const cookie = await signIn(FRESH_ACCOUNTS.analyst);
    const body = circle();
    const res = await api("POST", "/v1/geofences", { ...as(cookie), json: body });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const seen = await api("GET", `/v1/geofences/dash/${body.externalId}`);
    expect(seen.status).toBe(200);
    expectError(await api("GET", "/api/keys", as(cookie)), 403, undefined, /analyst role/);
  });

  it("refuses geofence editing to a reviewer, who can still read geofences and events", async () => {
    const cookie = await signIn(FRESH_ACCOUNTS.reviewer);
    expectError(
      await api("POST", "/v1/geofences", { ...as(cookie), json: circle() }),
      403,
      undefined,
      /reviewer/,
    );
    const g = (await api("POST", "/v1/geofences", { json: circle() })).body.geofence as { _id: string };
    expectError(await api("DELETE", `/v1/geofences/${g._id}`, as(cookie)), 403);
    expect((await api("GET", `/v1/geofences/${g._id}`, as(cookie))).status).toBe(200);
    expect((await api("GET", "/v1/events", as(cookie))).status).toBe(200);
    expectError(await api("POST", "/v1/track", { ...as(cookie), json: {} }), 403);
  });

  it("refuses session changes that come from another site", async () => {
    const cookie = await signIn(FRESH_ACCOUNTS.admin);
    const res = await api("POST", "/v1/geofences", {
      ...as(cookie, { origin: "https://evil.example" }),
      json: circle(),
    });
    expectError(res, 403, undefined, /cross-site/);
  });

  it("switches a session between test and live data", async () => {
    const cookie = await signIn(FRESH_ACCOUNTS.admin);
    const body = circle();
    await api("POST", "/v1/geofences", { json: body });
    const inTest = await api("GET", `/v1/geofences/dash/${body.externalId}`, as(cookie));
    expect(inTest.status).toBe(200);
    expect((await api("PATCH", "/api/session", { ...as(cookie), json: { live: true } })).body.live).toBe(
      true,
    );
    expectError(await api("GET", `/v1/geofences/dash/${body.externalId}`, as(cookie)), 404);
    expectError(await api("PATCH", "/api/session", { ...as(cookie), json: { live: "yes" } }), 400, "live");
  });
});

describe("keys and accounts from the dashboard", () => {
  it("lets an admin create a key that works at once, list it with its last use, and revoke it", async () => {
    const cookie = await signIn(FRESH_ACCOUNTS.admin);
    const created = await api("POST", "/api/keys", { ...as(cookie), json: { kind: "secret", name: "ci" } });
    expect(created.status).toBe(201);
    const { key, record } = created.body as unknown as { key: string; record: { id: string } };
    expect((await api("GET", "/v1/geofences", { key })).status).toBe(200);
    const list = async () =>
      (await api("GET", "/api/keys", as(cookie))).body.keys as { id: string; lastUsedAt: string | null }[];
    // The use is recorded beside the answer, not before it, and again at the next use if that write
    // failed (server/auth/keys.ts; another process on the database may hold it): listed once written.
    await expect
      .poll(
        async () => {
          const found = (await list()).find((k) => k.id === record.id)?.lastUsedAt;
          if (!found) expect((await api("GET", "/v1/geofences", { key })).status).toBe(200);
          return found;
        },
        { timeout: 20_000, interval: 250 },
      )
      .toBeTruthy();
    expect(JSON.stringify(await list())).not.toContain(key);
    expect((await api("DELETE", `/api/keys/${record.id}`, as(cookie))).status).toBe(200);
    expectError(await api("GET", "/v1/geofences", { key }), 401);
    expectError(await api("POST", "/api/keys", { ...as(cookie), json: { kind: "root" } }), 400, "kind");
    expectError(await api("DELETE", "/api/keys/nope", as(cookie)), 404);
  });

  it("lets an admin create accounts, refusing duplicates and bad roles", async () => {
    const cookie = await signIn(FRESH_ACCOUNTS.admin);
    const email = `${unique("new")}@example.test`;
    const res = await api("POST", "/api/accounts", { ...as(cookie), json: { email, role: "analyst" } });
    expect(res.status).toBe(201);
    const password = res.body.password as string;
    expect(password.length).toBeGreaterThanOrEqual(10);
    await signIn(email, password);
    expectError(await api("POST", "/api/accounts", { ...as(cookie), json: { email, role: "analyst" } }), 409);
    expectError(
      await api("POST", "/api/accounts", { ...as(cookie), json: { email: "x@y.z", role: "owner" } }),
      400,
      "role",
    );
    expect(keys.secret).toBeTruthy();
  });
});

describe("review screen prediction", () => {
  it("shows how each verdict would move the confidence of later events like this one", async () => {
    const center = { lat: 12.5, lng: 77.1 };
    const { north } = metersFrom(center);
    const tag = unique("predict");
    await api("PUT", `/v1/geofences/${tag}/a`, {
      json: { description: "Edge case", type: "circle", coordinates: [center.lng, center.lat], radius: 100 },
    });
    // 80 m from the center of a 100 m circle with 30 m accuracy: mostly inside, near the edge.
    const tracked = await api("POST", "/v1/track", {
      key: keys.publishable,
      json: { deviceId: unique("d"), latitude: north(80), longitude: center.lng, accuracy: 30 },
    });
    const event = (tracked.body.events as { _id: string; type: string }[])[0]!;
    expect(event.type).toBe("user.entered_geofence");
    const cookie = await signIn(FRESH_ACCOUNTS.reviewer);
    type Outcome = { probability: number; confidence: number };
    const predict = async () =>
      (await api("GET", `/api/events/${event._id}/prediction`, as(cookie))).body.prediction as {
        band: string;
        unverified: Outcome;
        accepted: Outcome;
        rejected: Outcome;
      };
    const before = await predict();
    expect(before.band).toBe("edge");
    expect(before.accepted.probability).toBeGreaterThan(before.unverified.probability);
    expect(before.rejected.probability).toBeLessThan(before.unverified.probability);
    // The event's own verdict is what is being decided: verifying it does not move the figures.
    await api("PUT", `/v1/events/${event._id}/verification`, { ...as(cookie), json: { verification: 1 } });
    expect(await predict()).toEqual(before);
    expectError(await api("GET", "/api/events/nope/prediction", as(cookie)), 404);
  });
});

describe("a user's trail", () => {
  it("lists the user's recent locations by when the device was there, newest first", async () => {
    const deviceId = unique("walker");
    const t0 = Date.parse("2026-11-20T08:00:00Z");
    // The third is older than the one before it: tracking ignores it, and so does the trail.
    for (const [i, minutes] of [0, 2, 1, 3].entries()) {
      const res = await api("POST", "/v1/track", {
        key: keys.publishable,
        json: {
          deviceId,
          latitude: 13 + i * 0.001,
          longitude: 78,
          accuracy: 10 + i,
          updatedAt: new Date(t0 + minutes * 60_000).toISOString(),
        },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    const cookie = await signIn(FRESH_ACCOUNTS.reviewer);
    const trail = async (query = "") =>
      (await api("GET", `/api/users/${deviceId}/trail${query}`, as(cookie))).body.locations as {
        coordinates: [number, number];
        accuracy: number;
        recordedAt: string;
      }[];
    const all = await trail();
    expect(all.map((p) => p.recordedAt)).toEqual(
      [3, 2, 0].map((m) => new Date(t0 + m * 60_000).toISOString()),
    );
    expect(all[0]).toMatchObject({ coordinates: [78, 13.003], accuracy: 13 });
    expect(await trail("?limit=2")).toHaveLength(2);
    expectError(await api("GET", `/api/users/${deviceId}/trail?limit=0`, as(cookie)), 400, "limit");
    expectError(await api("GET", `/api/users/${unique("nobody")}/trail`, as(cookie)), 404);
  });
});
