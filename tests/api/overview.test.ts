import { type Server, createServer } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  FRESH_ACCOUNTS,
  FRESH_PASSWORD,
  type FreshServer,
  startFreshServer,
} from "../../scripts/fresh-server";
import type { OverviewView } from "../../lib/types";
import { runScript } from "../support/cli";

/**
 * The overview page's figures (GET /api/overview), on a server of its own so that every count is
 * this file's: users, events per hour, the review queue, trips, failing webhooks and the system.
 */

let server: FreshServer;
let receiver: Server;
let receiverUrl: string;
let refused = 0;
const HOUR_MS = 3_600_000;

beforeAll(async () => {
  // A receiver that refuses every request: its webhook is failing.
  receiver = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      refused++;
      res.writeHead(503).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
  server = await startFreshServer({ env: { WEBHOOKS_ALLOW_PRIVATE: "true" } });
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await new Promise((r) => receiver?.close(r));
});

async function call(method: string, path: string, opts: { key?: string; cookie?: string; json?: unknown }) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (opts.key) headers.authorization = opts.key;
  if (opts.cookie) Object.assign(headers, { cookie: opts.cookie, origin: server.url });
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers,
    body: opts.json === undefined ? undefined : JSON.stringify(opts.json),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function signIn(email: string) {
  const res = await fetch(`${server.url}/api/session`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.url },
    body: JSON.stringify({ email, password: FRESH_PASSWORD }),
  });
  expect(res.status).toBe(200);
  return res.headers.get("set-cookie")!.split(";")[0]!;
}

async function overview(cookie: string): Promise<OverviewView> {
  const res = await call("GET", "/api/overview", { cookie });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as unknown as OverviewView;
}

async function track(deviceId: string, lat: number, lng: number, updatedAt?: Date) {
  const res = await call("POST", "/v1/track", {
    key: server.keys.publishable,
    json: { deviceId, userId: deviceId, latitude: lat, longitude: lng, accuracy: 10, updatedAt },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.events as { _id: string; type: string }[];
}

/** The count of one type in the hour holding `at`. */
function countAt(o: OverviewView, type: string, at: Date) {
  const hour = new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS).toISOString();
  const i = o.events.hours.indexOf(hour);
  expect(i, `${hour} in ${o.events.hours.join(", ")}`).toBeGreaterThanOrEqual(0);
  return o.events.types.find((t) => t.type === type)?.counts[i] ?? 0;
}

describe("the overview", () => {
  it("starts empty and says what the system is", async () => {
    const admin = await signIn(FRESH_ACCOUNTS.admin);
    const o = await overview(admin);
    expect(o.world).toBe("test");
    expect(o.users).toEqual({ lastHour: 0, lastDay: 0 });
    expect(o.events.hours).toHaveLength(24);
    expect(o.events.total).toBe(0);
    expect(o.reviewQueue).toEqual({ count: 0, more: false, oldestAt: null, ageSeconds: null });
    expect(o.trips).toEqual({ active: 0, delayed: 0 });
    expect(o.webhooks).toMatchObject({ enabled: 0, failing: 0, list: [] });
    expect(o.system.engine).toBe(server.databaseUrl.startsWith("postgres") ? "postgresql" : "sqlite");
    expect(o.system.migrations.pending).toEqual([]);
    expect(o.system.migrations.applied).toBeGreaterThan(10);
    expect(o.system.bundles).toEqual({ open: 0, failed: [] });
    expect(o.system.processes).toBe(1);
    expect(o.system.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it("counts users, events per hour and type, the review queue, trips and failing webhooks", async () => {
    const admin = await signIn(FRESH_ACCOUNTS.admin);
    const { stdout } = await runScript("webhooks.ts", ["create", receiverUrl], {
      DATABASE_URL: server.databaseUrl,
      WEBHOOKS_ALLOW_PRIVATE: "true",
    });
    expect(stdout).toMatch(/webhook [0-9a-f]{24}/);
    const fence = await call("POST", "/v1/geofences", {
      key: server.keys.secret,
      json: {
        description: "Depot",
        type: "circle",
        coordinates: [-25, -20],
        radius: 300,
        tag: "depot",
        externalId: "d1",
      },
    });
    expect(fence.status, JSON.stringify(fence.body)).toBe(200);

    // One device three hours ago (it entered then), two now: one enters, one stays outside.
    const earlier = new Date(Date.now() - 3 * HOUR_MS);
    const past = await track("early", -20, -25, earlier);
    expect(past.map((e) => e.type)).toContain("user.entered_geofence");
    const now = new Date();
    const entered = await track("inside", -20.0001, -25);
    expect(entered.map((e) => e.type)).toContain("user.entered_geofence");
    await track("outside", -21, -25);

    // A trip due a minute from now, to a point ~110 km from its user: late.
    const trip = await call("POST", "/v1/trips", {
      key: server.keys.secret,
      json: {
        externalId: "t1",
        userId: "outside",
        mode: "car",
        destinationGeofenceTag: "depot",
        destinationGeofenceExternalId: "d1",
        scheduledArrivalAt: new Date(Date.now() + 60_000).toISOString(),
      },
    });
    expect(trip.status, JSON.stringify(trip.body)).toBe(200);
    await track("outside", -21.001, -25);

    let o = await overview(admin);
    expect(o.users).toEqual({ lastHour: 2, lastDay: 3 });
    expect(countAt(o, "user.entered_geofence", earlier)).toBe(1);
    expect(countAt(o, "user.entered_geofence", now)).toBe(1);
    expect(o.events.total).toBe(o.events.types.reduce((a, t) => a + t.total, 0));
    const queued = o.reviewQueue.count;
    expect(queued).toBe(o.events.total);
    expect(Date.parse(o.reviewQueue.oldestAt!)).toBe(Math.floor(earlier.getTime()));
    expect(o.reviewQueue.ageSeconds).toBeGreaterThan(3 * 3600 - 60);
    expect(o.trips).toEqual({ active: 1, delayed: 1 });

    // A verdict takes an event out of the queue; the oldest goes, so the queue is younger.
    const oldest = past.find((e) => e.type === "user.entered_geofence")!;
    const verdict = await call("PUT", `/v1/events/${oldest._id}/verification`, {
      key: server.keys.secret,
      json: { verification: 1 },
    });
    expect(verdict.status).toBe(200);
    o = await overview(admin);
    expect(o.reviewQueue.count).toBe(queued - 1);
    expect(o.reviewQueue.ageSeconds ?? 0).toBeLessThan(3 * 3600 - 60);

    // The receiver refuses: its requests wait, retried, and the webhook counts as failing.
    await expect.poll(() => refused, { timeout: 20_000 }).toBeGreaterThan(0);
    await expect.poll(async () => (await overview(admin)).webhooks.failing, { timeout: 20_000 }).toBe(1);
    o = await overview(admin);
    expect(o.webhooks.enabled).toBe(1);
    expect(o.webhooks.list[0]).toMatchObject({ url: receiverUrl, enabled: true });
    expect(o.webhooks.list[0]!.retrying).toBeGreaterThan(0);
    expect(o.webhooks.list[0]!.pending).toBeGreaterThanOrEqual(o.webhooks.list[0]!.retrying);
    expect(o.webhooks.list[0]!.lagSeconds).toBeGreaterThan(0);

    // This process's API traffic, from the metrics' histogram.
    expect(o.system.requests!.requests).toBeGreaterThanOrEqual(6);
    expect(o.system.requests!.p99Ms).toBeGreaterThan(0);

    // An analyst sees the same; the live world has none of it; a reviewer may not look.
    const analyst = await signIn(FRESH_ACCOUNTS.analyst);
    expect((await overview(analyst)).users).toEqual({ lastHour: 2, lastDay: 3 });
    const live = await call("PATCH", "/api/session", { cookie: analyst, json: { live: true } });
    expect(live.status).toBe(200);
    const inLive = await overview(analyst);
    expect(inLive.world).toBe("live");
    expect(inLive.users).toEqual({ lastHour: 0, lastDay: 0 });
    expect(inLive.events.total).toBe(0);
    expect(inLive.reviewQueue.count).toBe(0);
    expect(inLive.webhooks.list).toEqual([]);
    const reviewer = await signIn(FRESH_ACCOUNTS.reviewer);
    const refusedAnswer = await call("GET", "/api/overview", { cookie: reviewer });
    expect(refusedAnswer.status).toBe(403);
  });
});
