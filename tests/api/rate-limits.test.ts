import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FreshServer, serve, startFreshServer } from "../../scripts/fresh-server";

/**
 * Rate limits (docs/security.md#rate-limits), on servers of this file's own, with the defaults
 * but for sign-ins and requests without a valid key (set low, below):
 * the limits of a client address are shared by everything a test sends from this machine.
 */

let server: FreshServer;

beforeAll(async () => {
  // Sign-ins limited low here, so that a few show the limit (each costs a password hash); the
  // address's limit too, so that what it refuses does not hang on how fast this machine sends
  // (the default's 10 a second refill as fast as a busy machine sends 150 requests).
  server = await startFreshServer({
    env: {
      LOG_LINES_PER_KEY_PER_DAY: "1000",
      RATE_LIMIT_SIGN_IN: "1/s+10/min",
      RATE_LIMIT_ADDRESS: "2/s+48/min",
    },
  });
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

interface Sent {
  status: number;
  headers: Headers;
  body: { meta: { code: number; message?: string } } & Record<string, unknown>;
}

async function send(
  url: string,
  path: string,
  json: unknown,
  headers: Record<string, string> = {},
): Promise<Sent> {
  const res = await fetch(`${url}${path}`, {
    method: "POST",
    headers: { authorization: server.keys.publishable, "content-type": "application/json", ...headers },
    body: JSON.stringify(json),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Sent["body"] };
}

const update = (deviceId: string, url = server.url) =>
  send(url, "/v1/track", { deviceId, latitude: 12.5, longitude: -70, accuracy: 10 });

const statuses = (sent: Sent[]) => sent.map((s) => s.status);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("rate limits", () => {
  it("never refuse a device sending an update a second with bursts of 20", async () => {
    const deviceId = `steady-${Date.now()}`;
    const sent: Sent[] = [];
    const burst = async () =>
      sent.push(...(await Promise.all(Array.from({ length: 20 }, () => update(deviceId)))));
    await burst();
    for (let i = 0; i < 3; i++) {
      await sleep(1000);
      sent.push(await update(deviceId));
    }
    await burst();
    expect(statuses(sent).every((s) => s === 200)).toBe(true);
  }, 30_000);

  it("refuse a device sending 100 requests in a second after its burst, in the envelope, and not another device", async () => {
    const flooding = `flood-${Date.now()}`;
    const started = Date.now();
    const sent = await Promise.all(Array.from({ length: 100 }, () => update(flooding)));
    const seconds = Math.ceil((Date.now() - started) / 1000);
    const refused = sent.filter((s) => s.status === 429);
    const accepted = sent.filter((s) => s.status === 200);
    // 5 a second (for each second the 100 took to send) and 60 more a minute.
    expect(accepted.length).toBeGreaterThanOrEqual(60);
    expect(accepted.length).toBeLessThanOrEqual(60 + 5 * seconds);
    expect(refused.length).toBeGreaterThan(0);
    const r = refused[0]!;
    expect(r.body.meta.code).toBe(429);
    expect(r.body.meta.message).toMatch(/too many requests for this device/);
    expect(Number(r.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(r.headers.get("ratelimit-limit")).toBe("5");
    expect(r.headers.get("ratelimit-remaining")).toBe("0");
    expect(Number(r.headers.get("ratelimit-reset"))).toBeGreaterThanOrEqual(1);
    // Its installId or userId is the same device.
    const byUser = await send(server.url, "/v1/track", {
      deviceId: `other-name-${Date.now()}`,
      userId: "flooder",
      latitude: 1,
      longitude: 1,
      accuracy: 5,
    });
    expect(byUser.status).toBe(200);
    // Another device is served.
    expect((await update(`calm-${Date.now()}`)).status).toBe(200);
  });

  it("limit requests without a valid key by address, before any key is looked up", async () => {
    const random = () =>
      `prj_test_pk_${[...Array(40)].map(() => "0123456789abcdef"[Math.floor(Math.random() * 16)]).join("")}`;
    const sent = await Promise.all(
      Array.from({ length: 150 }, () =>
        fetch(`${server.url}/v1/config`, { headers: { authorization: random() } }).then((r) => r.status),
      ),
    );
    // Some were looked up and refused as unknown keys (fewer where the app processes alive share
    // the limit: each charges a request times their count), the rest refused before any lookup.
    expect(sent.filter((s) => s === 401).length).toBeGreaterThanOrEqual(10);
    expect(sent.filter((s) => s === 429).length).toBeGreaterThanOrEqual(40);
    // A valid key is still served from that address.
    const ok = await fetch(`${server.url}/v1/config`, {
      headers: { authorization: server.keys.publishable },
    });
    expect(ok.status).toBe(200);
  });

  it("keep device logs only for tracked devices, within a daily quota per key", async () => {
    const line = { level: "info", message: "tracking started" };
    const unknown = await send(server.url, "/v1/logs", { deviceId: "never-tracked", logs: [line] });
    expect(unknown.status).toBe(404);
    expect(unknown.body.meta).toMatchObject({ param: "deviceId" });
    const deviceId = `logger-${Date.now()}`;
    expect((await update(deviceId)).status).toBe(200);
    const batch = { deviceId, logs: Array.from({ length: 450 }, () => line) };
    // 1,000 lines a day in all (this server's LOG_LINES_PER_KEY_PER_DAY), shared by its processes.
    const sent = [];
    for (let i = 0; i < 3; i++) sent.push(await send(server.url, "/v1/logs", batch));
    expect(sent[0]!.status).toBe(200);
    const refused = sent.find((s) => s.status === 429);
    expect(refused?.body.meta.message).toMatch(/SDK log lines with this key today/);
  });

  it("limit sign-ins from one address, whatever the account", async () => {
    const sent = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        fetch(`${server.url}/api/session`, {
          method: "POST",
          headers: { "content-type": "application/json", origin: server.url },
          body: JSON.stringify({ email: `nobody-${i}@example.test`, password: "wrong" }),
        }).then(async (r) => ({
          status: r.status,
          ...((await r.json()) as { meta: { message?: string } }).meta,
        })),
      ),
    );
    expect(sent.filter((s) => s.message?.includes("to sign in from this address")).length).toBeGreaterThan(0);
  }, 30_000);
});

describe("rate limits of several processes", () => {
  it("hold across two app processes of one database", async () => {
    const second = await serve(server.databaseUrl);
    try {
      // Both processes have counted each other (they look every 5 s).
      await update(`warm-${Date.now()}`);
      await update(`warm-${Date.now()}`, second.url);
      await sleep(6_000);
      await update(`warm-${Date.now()}`);
      await update(`warm-${Date.now()}`, second.url);
      await sleep(500);
      const deviceId = `spread-${Date.now()}`;
      const started = Date.now();
      const sent = await Promise.all(
        Array.from({ length: 100 }, (_, i) => update(deviceId, i % 2 ? second.url : server.url)),
      );
      const seconds = Math.ceil((Date.now() - started) / 1000);
      const accepted = statuses(sent).filter((s) => s === 200).length;
      // Counting alone, each process would take all 50 it is sent: sharing, both take 65 in all
      // (and 5 a second more).
      expect(accepted).toBeGreaterThanOrEqual(55);
      expect(accepted).toBeLessThanOrEqual(60 + 5 * seconds);
    } finally {
      await second.stop();
    }
  }, 60_000);
});

describe("RATE_LIMITS=off", () => {
  it("turns every limit off", async () => {
    const open = await serve(server.databaseUrl, { env: { RATE_LIMITS: "off" } });
    try {
      const sent = await Promise.all(
        Array.from({ length: 100 }, () =>
          fetch(`${open.url}/v1/track`, {
            method: "POST",
            headers: { authorization: server.keys.publishable, "content-type": "application/json" },
            body: JSON.stringify({ deviceId: "scripted", latitude: 1, longitude: 1, accuracy: 5 }),
          }).then((r) => r.status),
        ),
      );
      expect(sent.every((s) => s === 200)).toBe(true);
    } finally {
      await open.stop();
    }
  }, 60_000);
});
