import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type RunningServer, serve } from "../../scripts/fresh-server";
import { FRESH_ACCOUNTS, FRESH_PASSWORD } from "../../scripts/fresh-server";
import { api, keys, signIn, unique } from "../support/api";

/**
 * Two app processes on one database, as behind a load balancer: the same devices tracked through
 * both at once make each event exactly once, and none is lost. On PostgreSQL each update locks
 * its device in the database; on SQLite the write transaction does (BEGIN IMMEDIATE).
 */

let other: RunningServer;
const baseUrl = inject("baseUrl");

beforeAll(async () => {
  other = await serve(inject("databaseUrl"), { env: { GEODATA_DIR: inject("geodataDir") } });
});
afterAll(async () => {
  await other?.stop();
});

async function trackAt(url: string, body: Record<string, unknown>) {
  const res = await fetch(`${url}/v1/track`, {
    method: "POST",
    headers: { authorization: keys.publishable, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as { events: { _id: string; type: string }[] };
}

describe("two app processes, one database", () => {
  it("make each entry and exit once when every move reaches both at the same moment", async () => {
    const center = { lat: 33.3, lng: -120.7 };
    const fence = await api("POST", "/v1/geofences", {
      json: { description: "balancer", type: "circle", coordinates: [center.lng, center.lat], radius: 100 },
    });
    expect(fence.status).toBe(200);
    const geofenceId = (fence.body.geofence as { _id: string })._id;

    const devices = Array.from({ length: 6 }, () => unique("lb"));
    const steps = 8;
    const t0 = Date.now() - 3_600_000;
    const answered: string[] = [];
    for (let step = 0; step < steps; step++) {
      const inside = step % 2 === 0;
      // Every device's move is sent to both processes at once (a client retrying through the
      // balancer); all devices move at the same time.
      await Promise.all(
        devices.flatMap((deviceId) => {
          const body = {
            deviceId,
            latitude: inside ? center.lat : center.lat + 0.02,
            longitude: center.lng,
            accuracy: 5,
            updatedAt: new Date(t0 + step * 60_000).toISOString(),
          };
          return [baseUrl, other.url].map(async (url) => {
            const { events } = await trackAt(url, body);
            answered.push(...events.filter((e) => e.type.endsWith("_geofence")).map((e) => e._id));
          });
        }),
      );
    }

    const res = await api("GET", `/v1/events?limit=1000&geofenceId=${geofenceId}`);
    expect(res.status).toBe(200);
    const stored = res.body.events as { _id: string; type: string; user: { deviceId: string } }[];
    for (const deviceId of devices) {
      const mine = stored
        .filter((e) => e.user.deviceId === deviceId)
        .map((e) => e.type)
        .reverse();
      const expected = Array.from({ length: steps }, (_, i) =>
        i % 2 === 0 ? "user.entered_geofence" : "user.exited_geofence",
      );
      expect(mine, deviceId).toEqual(expected);
    }
    // What the devices were told is what was stored: no event answered twice or not kept.
    expect(new Set(answered).size).toBe(answered.length);
    expect(answered.sort()).toEqual(stored.map((e) => e._id).sort());
  });

  it("refuse a revoked key in both processes within a second, though each had it cached", async () => {
    const cookie = await signIn(FRESH_ACCOUNTS.admin, FRESH_PASSWORD);
    const created = await api("POST", "/api/keys", {
      key: null,
      headers: { cookie },
      json: { kind: "secret", name: "two" },
    });
    expect(created.status).toBe(201);
    const { key, record } = created.body as unknown as { key: string; record: { id: string } };
    const status = async (url: string) =>
      (await fetch(`${url}/v1/geofences?limit=1`, { headers: { authorization: key } })).status;
    // Used (and so kept) by both.
    expect([await status(baseUrl), await status(other.url)]).toEqual([200, 200]);
    expect([await status(baseUrl), await status(other.url)]).toEqual([200, 200]);
    // Revoked through the first: refused there at once, by the other within a second.
    expect((await api("DELETE", `/api/keys/${record.id}`, { key: null, headers: { cookie } })).status).toBe(
      200,
    );
    const revokedAt = Date.now();
    expect(await status(baseUrl)).toBe(401);
    while ((await status(other.url)) !== 401) {
      expect(Date.now() - revokedAt).toBeLessThan(1000);
      await new Promise((r) => setTimeout(r, 20));
    }
  });
});
