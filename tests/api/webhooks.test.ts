import { createHmac } from "node:crypto";
import { type IncomingHttpHeaders, type Server, createServer } from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  FRESH_ACCOUNTS,
  FRESH_PASSWORD,
  type FreshServer,
  serve,
  startFreshServer,
} from "../../scripts/fresh-server";
import { signIn } from "../support/api";
import { runScript } from "../support/cli";
import { numberFrom } from "../support/db";

/**
 * Webhooks, real HTTP both ways: a server of its own (its outbox is this file's
 * alone), receivers started here, webhooks made as an admin does on the dashboard (its API), and
 * with the CLI as an operator would in the test that manages them from the command line (each
 * run of it costs a Node process: a second and more).
 */

let server: FreshServer;
/** An admin's session on the server. */
let admin = "";

/** The retry schedule runs 720 times faster here: an hour is 5 s, the first retry 42 ms. */
const SCALE = 1 / 720;
const HOUR_MS = 3600_000 * SCALE;

beforeAll(async () => {
  server = await startFreshServer({
    env: { WEBHOOKS_ALLOW_PRIVATE: "true", WEBHOOKS_RETRY_SCALE: SCALE.toFixed(6) },
  });
  admin = await signIn(FRESH_ACCOUNTS.admin, FRESH_PASSWORD, server.url);
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

async function cli(...args: string[]) {
  return runScript("webhooks.ts", args, { DATABASE_URL: server.databaseUrl, WEBHOOKS_ALLOW_PRIVATE: "true" });
}

/** The dashboard's webhook calls, as an admin. */
async function dashboard(method: string, path: string, json?: unknown) {
  const res = await fetch(`${server.url}/api/webhooks${path}`, {
    method,
    headers: { cookie: admin, origin: server.url, "content-type": "application/json" },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  expect(res.status, await res.clone().text()).toBeLessThan(300);
  return (await res.json()) as { webhook?: { _id: string }; token?: string };
}

async function createHook(
  url: string,
  options: { mode?: "single" | "multiple"; types?: string[]; live?: boolean } = {},
) {
  const made = await dashboard("POST", "", { url, ...options });
  return { id: made.webhook!._id, token: made.token! };
}

const deleteHook = (id: string) => dashboard("DELETE", `/${id}`);

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  json: { event?: Wire; events?: Wire[]; user: Wire };
}
type Wire = Record<string, unknown> & { _id: string; type?: string };

/**
 * A receiver: records what reaches it (`got`: the requests it took; `all`: every request with the
 * status it answered); `answer` says the status of each request (by count).
 */
async function receiver(answer: (n: number) => number = () => 200) {
  const got: Received[] = [];
  const all: (Received & { status: number })[] = [];
  let n = 0;
  const srv: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const status = answer(++n);
      const r = { headers: req.headers, body, json: JSON.parse(body) as Received["json"] };
      all.push({ ...r, status });
      if (status < 300) got.push(r);
      res.writeHead(status).end("ok");
    });
  });
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(srv.address() as { port: number }).port}/hook`;
  return { url, got, all, requests: () => n, close: () => new Promise((r) => srv.close(r)) };
}

async function call(method: string, path: string, key: string, json?: unknown) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: key, "content-type": "application/json" },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as Record<string, unknown>;
}

let fenceAt = 0;
/** Geofences around a fresh spot; `count` overlapping circles. */
async function fences(count: number, key = server.keys.secret) {
  const lat = -20 + fenceAt++ * 0.5; // the South Atlantic: no region events
  for (let i = 0; i < count; i++) {
    await call("POST", "/v1/geofences", key, {
      description: `hook ${fenceAt}-${i}`,
      type: "circle",
      coordinates: [-25, lat],
      radius: 200 + i,
    });
  }
  return { lat, lng: -25 };
}

const track = (deviceId: string, at: { lat: number; lng: number }, key = server.keys.publishable) =>
  call("POST", "/v1/track", key, { deviceId, latitude: at.lat, longitude: at.lng, accuracy: 5 }) as Promise<{
    events: Wire[];
  }>;

async function until(check: () => boolean | Promise<boolean>, ms = 10_000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error("timed out waiting for the receiver");
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("webhooks", () => {
  it("deliver trip events with the trip, in order, filtered by type", async () => {
    const rx = await receiver();
    await createHook(rx.url, { types: ["user.started_trip", "user.stopped_trip"] });
    const userId = `trip-hook-${Date.now()}`;
    await call("POST", "/v1/track", server.keys.publishable, {
      deviceId: `${userId}-device`,
      userId,
      latitude: -19,
      longitude: -26,
      accuracy: 5,
    });
    const externalId = `${userId}-order`;
    await call("POST", "/v1/trips", server.keys.secret, { externalId, userId, mode: "bike" });
    await call("PATCH", `/v1/trips/${externalId}/update`, server.keys.publishable, {
      status: "completed",
      userId,
    });
    await until(() => rx.got.length === 2);
    expect(
      rx.got.map((r) => [r.json.event!.type, (r.json.event!.trip as { externalId: string }).externalId]),
    ).toEqual([
      ["user.started_trip", externalId],
      ["user.stopped_trip", externalId],
    ]);
    expect((rx.got[1]!.json.event!.trip as { status: string }).status).toBe("completed");
    await rx.close();
  });

  it("deliver each event in Radar's single body, signed both ways, as the API serializes it", async () => {
    const rx = await receiver();
    const { id, token } = await createHook(rx.url);
    const spot = await fences(1);
    const { events } = await track("hook-single", spot);
    expect(events).toHaveLength(1);
    await until(() => rx.got.length === 1);
    const [r] = rx.got;
    // Radar's signature: HMAC-SHA1 of the signing id.
    const signingId = r!.headers["x-radar-signing-id"] as string;
    expect(r!.headers["x-radar-signature"]).toBe(createHmac("sha1", token).update(signingId).digest("hex"));
    // Standard Webhooks: HMAC-SHA256 of id.timestamp.body, base64, "v1,".
    const [wid, ts] = [r!.headers["webhook-id"] as string, r!.headers["webhook-timestamp"] as string];
    const expected = createHmac("sha256", token).update(`${wid}.${ts}.${r!.body}`).digest("base64");
    expect(r!.headers["webhook-signature"]).toBe(`v1,${expected}`);
    expect(Math.abs(Number(ts) - Date.now() / 1000)).toBeLessThan(30);
    // The event and user as GET /v1/events/{id} and GET /v1/users/{id} serialize them.
    const stored = await call("GET", `/v1/events/${events[0]!._id}`, server.keys.secret);
    expect(r!.json.event).toEqual(stored.event);
    const user = (await call("GET", `/v1/users/${r!.json.user._id}`, server.keys.secret)).user as Wire;
    expect(r!.json.user).toEqual(user);
    expect((r!.json.user.geofences as unknown[]).length).toBe(1);
    // Deleting the user takes its requests with it, sent or not: they carry its data.
    const userId = r!.json.user._id;
    const owed = (table: string) =>
      numberFrom(server.databaseUrl, `SELECT count(*) AS n FROM "${table}" WHERE "userId" = ?`, userId);
    // Sent straight from its outbox row, it is recorded with its outcome (no queue is needed).
    await until(async () => (await owed("WebhookDelivery")) === 1);
    const delivered = await numberFrom(
      server.databaseUrl,
      `SELECT count(*) AS n FROM "WebhookDelivery" WHERE "id" = ? AND "status" = 'delivered'
         AND "attempts" = 1 AND "lastStatus" = 200 AND "deliveredAt" IS NOT NULL`,
      wid,
    );
    expect([delivered, await owed("WebhookQueue")]).toEqual([1, 0]);
    await call("DELETE", `/v1/users/${userId}`, server.keys.secret);
    expect([await owed("WebhookDelivery"), await owed("WebhookQueue")]).toEqual([0, 0]);
    await deleteHook(id);
    await rx.close();
  }, 60_000);

  it("send up to 5 events per request in multiple mode, only the types asked for, only of its world", async () => {
    const many = await receiver();
    const exits = await receiver();
    const live = await receiver();
    const hooks = [
      await createHook(many.url, { mode: "multiple" }),
      await createHook(exits.url, { types: ["user.exited_geofence"] }),
      await createHook(live.url, { live: true }),
    ];
    const spot = await fences(7);
    const entered = await track("hook-multi", spot);
    expect(entered.events).toHaveLength(7);
    await until(() => many.got.length === 2);
    expect(many.got.map((r) => r.json.events!.length)).toEqual([5, 2]);
    expect(many.got.flatMap((r) => r.json.events!.map((e) => e._id))).toEqual(
      entered.events.map((e) => e._id),
    );
    const left = await track("hook-multi", { lat: spot.lat + 1, lng: spot.lng });
    expect(left.events).toHaveLength(7);
    await until(() => exits.got.length === 7 && many.got.length === 4);
    expect(exits.got.every((r) => r.json.event!.type === "user.exited_geofence")).toBe(true);
    // Test events never reach a live webhook.
    expect(live.requests()).toBe(0);
    for (const h of hooks) await deleteHook(h.id);
    await Promise.all([many.close(), exits.close(), live.close()]);
  }, 60_000);

  it("retry a refused delivery with the same webhook-id, and keep each user's events in order", async () => {
    // Down for the first 6 requests (each a 500), then up.
    const rx = await receiver((n) => (n <= 6 ? 500 : 200));
    const { id } = await createHook(rx.url);
    const spot = await fences(1);
    const order: string[] = [];
    for (const device of ["hook-order-a", "hook-order-b"]) {
      for (let i = 0; i < 3; i++) {
        const inside = i % 2 === 0;
        const { events } = await track(device, inside ? spot : { lat: spot.lat + 1, lng: spot.lng });
        order.push(...events.map((e) => `${device}:${e._id}`));
      }
    }
    expect(order).toHaveLength(6);
    await until(() => rx.got.length === 6, 30_000);
    for (const device of ["hook-order-a", "hook-order-b"]) {
      const sent = order.filter((o) => o.startsWith(device)).map((o) => o.split(":")[1]);
      const got = rx.got.filter((r) => r.json.user.deviceId === device).map((r) => r.json.event!._id);
      expect(got).toEqual(sent);
    }
    // Every delivery was taken once, under its own id; each refused attempt was tried again
    // with the same webhook-id (and signed anew, with a fresh Radar signing id).
    const taken = rx.got.map((r) => r.headers["webhook-id"]);
    expect(new Set(taken).size).toBe(6);
    const refused = rx.all.filter((r) => r.status === 500);
    expect(refused).toHaveLength(6);
    for (const r of refused) expect(taken).toContain(r.headers["webhook-id"]);
    const signingIds = rx.all.map((r) => r.headers["x-radar-signing-id"]);
    expect(new Set(signingIds).size).toBe(signingIds.length);
    await deleteHook(id);
    await rx.close();
  }, 60_000);

  it("send every event after a receiver's hour-long outage, in order per user, retrying with backoff", async () => {
    let down = true;
    const rx = await receiver(() => (down ? 503 : 200));
    const { id } = await createHook(rx.url);
    const spot = await fences(1);
    const devices = ["hook-outage-a", "hook-outage-b", "hook-outage-c"];
    const made = new Map<string, string[]>(devices.map((d) => [d, []]));
    // Events all through the outage: four moves of each device, a quarter of an hour apart.
    const started = Date.now();
    for (let i = 0; i < 4; i++) {
      for (const device of devices) {
        const { events } = await track(device, i % 2 === 0 ? spot : { lat: spot.lat + 1, lng: spot.lng });
        made.get(device)!.push(...events.map((e) => e._id));
      }
      await new Promise((r) => setTimeout(r, HOUR_MS / 4 - ((Date.now() - started) % (HOUR_MS / 4))));
    }
    await new Promise((r) => setTimeout(r, Math.max(0, started + HOUR_MS - Date.now())));
    const duringOutage = rx.requests();
    down = false;
    // Each user's first request was tried again and again, backing off: 30 s doubling to 30 min
    // in an hour makes about 7 tries (jitter: 6 to 12), not one per poll.
    for (const device of devices) {
      const tries = rx.all.filter((r) => r.json.user.deviceId === device).length;
      expect(tries, device).toBeGreaterThanOrEqual(5);
      expect(tries, device).toBeLessThanOrEqual(14);
    }
    expect(duringOutage).toBeLessThanOrEqual(3 * 14);
    // Back up: everything arrives (the next try is at most an hour away: 5 s here), in order.
    await until(() => rx.got.length === 12, 3 * HOUR_MS);
    for (const device of devices) {
      const got = rx.got.filter((r) => r.json.user.deviceId === device).map((r) => r.json.event!._id);
      expect(got, device).toEqual(made.get(device));
    }
    await deleteHook(id);
    await rx.close();
  }, 90_000);

  it("send nothing made while a webhook is disabled, and manage webhooks from the command line", async () => {
    const rx = await receiver();
    const made = (await cli("create", rx.url)).stdout;
    const id = /webhook ([0-9a-f]{24})/.exec(made)![1]!;
    expect(made).toMatch(/^\s+whsec_\S+$/m);
    expect((await cli("list")).stdout).toContain(id);
    await cli("disable", id);
    const spot = await fences(1);
    await track("hook-disabled", spot);
    await cli("enable", id);
    await cli("test", id);
    await until(() => rx.got.length === 1);
    await new Promise((r) => setTimeout(r, 500));
    // Only the test event: the entry made while disabled is not sent later.
    expect(rx.got.map((r) => r.json.event!.test)).toEqual([true]);
    await cli("delete", id);
    expect((await cli("list")).stdout).not.toContain(id);
    await rx.close();
  }, 60_000);

  it("keep sending to other webhooks and users while one receiver is down", async () => {
    // A receiver that refuses everything, owed hundreds of requests for one user: each waits
    // behind the first, which is being retried.
    const down = await receiver(() => 500);
    const dead = await createHook(down.url);
    const spot = await fences(20);
    for (let i = 0; i < 16; i++)
      await track("hook-down", i % 2 === 0 ? spot : { lat: spot.lat + 1, lng: spot.lng });
    await until(() => down.requests() >= 2);
    // Made after them: another webhook's, and another user's to the same webhook.
    const up = await receiver();
    const live = await createHook(up.url);
    const other = await fences(1);
    const { events } = await track("hook-other", other);
    await until(() => up.got.length === 1, 5_000);
    expect(up.got[0]!.json.event!._id).toBe(events[0]!._id);
    const before = down.requests();
    await track("hook-other", { lat: other.lat + 1, lng: other.lng });
    // The down receiver is asked for hook-other's exit at once (its own queue) while hook-down's
    // requests wait on their first.
    await until(() => down.requests() > before, 5_000);
    for (const h of [dead, live]) await deleteHook(h.id);
    await Promise.all([down.close(), up.close()]);
  }, 90_000);

  it("send at once, at the machine's time, from a process whose own clock runs ahead of it", async () => {
    // A geofence stored an hour ahead (by a process whose clock was): a process that opens the
    // database after it keeps its strictly increasing clock past it. The events it makes at "now"
    // (updates without an updatedAt) are still stamped with its machine's time, and sent at once.
    const spot = await fences(1);
    const ahead = await serve(server.databaseUrl, {
      env: { WEBHOOKS_ALLOW_PRIVATE: "true" },
      nodeArgs: ["--import", path.resolve(import.meta.dirname, "../support/clock-ahead.mjs")],
    });
    try {
      const res = await fetch(`${ahead.url}/v1/geofences`, {
        method: "POST",
        headers: { authorization: server.keys.secret, "content-type": "application/json" },
        body: JSON.stringify({
          description: "made an hour ahead",
          type: "circle",
          coordinates: [spot.lng, spot.lat / 2],
          radius: 50,
        }),
      });
      expect(res.status).toBe(200);
    } finally {
      await ahead.stop();
    }
    const later = await serve(server.databaseUrl, { env: { WEBHOOKS_ALLOW_PRIVATE: "true" } });
    const rx = await receiver();
    const { id } = await createHook(rx.url);
    try {
      const res = await fetch(`${later.url}/v1/track`, {
        method: "POST",
        headers: { authorization: server.keys.publishable, "content-type": "application/json" },
        body: JSON.stringify({
          deviceId: "hook-ahead-1",
          latitude: spot.lat,
          longitude: spot.lng,
          accuracy: 5,
        }),
      });
      const { events } = (await res.json()) as { events: Wire[] };
      // Stamped with the machine's time, though this process's own clock was set an hour ahead
      // (past the newest geofence's createdAt).
      expect(Math.abs(Date.parse(events[0]!.createdAt as string) - Date.now())).toBeLessThan(60_000);
      // Its requests are due by the machine's time: sent now, not in an hour.
      await until(() => rx.got.length === 1, 5_000);
      expect(rx.got[0]!.json.event!._id).toBe(events[0]!._id);
    } finally {
      await later.stop();
      await deleteHook(id);
      await rx.close();
    }
  }, 90_000);

  it("send conversions like the other events, after the device's own events, in order", async () => {
    const rx = await receiver();
    const { id } = await createHook(rx.url);
    try {
      const spot = await fences(1);
      const { events } = await track("hook-buyer", spot);
      const { event } = (await call("POST", "/v1/events", server.keys.publishable, {
        deviceId: "hook-buyer",
        type: "purchase",
        metadata: { revenue: 9.99 },
      })) as { event: Wire };
      await until(() => rx.got.length === 2);
      expect(rx.got.map((r) => r.json.event!._id)).toEqual([events[0]!._id, event._id]);
      // The conversion as the API answered it, with the user as it is.
      expect(rx.got[1]!.json.event).toEqual(event);
      expect(rx.got[1]!.json.user).toMatchObject({
        deviceId: "hook-buyer",
        geofences: [{ description: expect.any(String) }],
      });
    } finally {
      await deleteHook(id);
      await rx.close();
    }
  }, 60_000);

  it("refuse URLs that reach the service's own network unless allowed", async () => {
    const refused = await runScript("webhooks.ts", ["create", "http://127.0.0.1:9/x"], {
      DATABASE_URL: server.databaseUrl,
      WEBHOOKS_ALLOW_PRIVATE: "",
    }).catch((e: { code: number; stderr: string }) => e);
    expect((refused as { code: number }).code).toBe(1);
    expect((refused as { stderr: string }).stderr).toMatch(/127\.0\.0\.1.*private/);
    const ftp = await cli("create", "ftp://example.com/x").catch((e: { stderr: string }) => e);
    expect((ftp as { stderr: string }).stderr).toMatch(/http or https/);
  }, 60_000);
});
