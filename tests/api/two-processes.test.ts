import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type RunningServer, serve } from "../../scripts/fresh-server";
import { FRESH_ACCOUNTS, FRESH_PASSWORD } from "../../scripts/fresh-server";
import { api, keys, signIn, unique } from "../support/api";
import { dbDate, dbRows, dbRun } from "../support/db";

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

  it("apply every update they answer exactly once, in order per device, with exactly its move's events", async () => {
    // Devices reporting through a balancer with no time of their own (arrival orders them): one
    // update at a time, two different updates at once (one to each process), or the same update
    // to both (a retry). Each update is told apart by its accuracy.
    const seconds = Number(process.env.STREAM_SECONDS ?? 8);
    const center = { lat: 31.7, lng: -121.3 };
    const outside = center.lat + 0.01;
    const fence = await api("POST", "/v1/geofences", {
      json: { description: "stream", type: "circle", coordinates: [center.lng, center.lat], radius: 100 },
    });
    expect(fence.status).toBe(200);
    const geofenceId = (fence.body.geofence as { _id: string })._id;

    interface Sent {
      tag: number;
      inside: boolean;
      answer: Answer;
    }
    interface Answer {
      user: { location: { coordinates: [number, number] }; locationAccuracy: number };
      events: { _id: string; type: string; locationAccuracy: number; geofence?: { _id: string } }[];
    }
    let tags = 0;
    const nextTag = () => 1 + ++tags / 1000;
    const send = async (url: string, deviceId: string, tag: number, inside: boolean): Promise<Answer> => {
      const res = await fetch(`${url}/v1/track`, {
        method: "POST",
        headers: { authorization: keys.publishable, "content-type": "application/json" },
        body: JSON.stringify({
          deviceId,
          latitude: inside ? center.lat : outside,
          longitude: center.lng,
          accuracy: tag,
        }),
      });
      const text = await res.text();
      expect(res.status, text).toBe(200);
      return JSON.parse(text) as Answer;
    };
    const urls = [baseUrl, other.url];
    const pick = () => urls[Math.floor(Math.random() * 2)]!;
    const deadline = Date.now() + seconds * 1000;
    const devices = Array.from({ length: 200 }, () => unique("stream"));
    const groups = new Map<string, Sent[][]>();
    await Promise.all(
      devices.map(async (deviceId) => {
        const mine: Sent[][] = [];
        groups.set(deviceId, mine);
        await new Promise((r) => setTimeout(r, Math.random() * 1000));
        // Until the time is up and enough updates were sent (a machine busy with another file
        // sends fewer in the time).
        while (Date.now() < deadline || tags <= seconds * 100) {
          const kind = Math.random();
          const a = { tag: nextTag(), inside: Math.random() < 0.5 };
          if (kind < 0.7) {
            mine.push([{ ...a, answer: await send(pick(), deviceId, a.tag, a.inside) }]);
          } else if (kind < 0.85) {
            const b = { tag: nextTag(), inside: !a.inside };
            const [ra, rb] = await Promise.all([
              send(urls[0]!, deviceId, a.tag, a.inside),
              send(urls[1]!, deviceId, b.tag, b.inside),
            ]);
            mine.push([
              { ...a, answer: ra },
              { ...b, answer: rb },
            ]);
          } else {
            const answers = await Promise.all(urls.map((url) => send(url, deviceId, a.tag, a.inside)));
            mine.push(answers.map((answer) => ({ ...a, answer })));
          }
          await new Promise((r) => setTimeout(r, Math.random() * 2000));
        }
      }),
    );
    expect(tags, "updates sent").toBeGreaterThan(seconds * 100);

    const problems: string[] = [];
    const answeredIds = new Set<string>();
    for (const [deviceId, sent] of groups) {
      const all = sent.flat();
      // Every update answered 200 was applied: the answer is its own fix.
      for (const s of all) {
        const { location, locationAccuracy } = s.answer.user;
        if (locationAccuracy !== s.tag || location.coordinates[1] !== (s.inside ? center.lat : outside))
          problems.push(
            `${deviceId}: update ${s.tag} was answered as ${locationAccuracy} at ${location.coordinates[1]}`,
          );
        for (const e of s.answer.events.filter((e) => e.geofence?._id === geofenceId)) {
          answeredIds.add(e._id);
          if (e.locationAccuracy !== s.tag)
            problems.push(`${deviceId}: update ${s.tag} answered ${e.type} of ${e.locationAccuracy}`);
        }
      }
      const users = await dbRows<{ seq: number }>(`SELECT "seq" FROM "User" WHERE "deviceId" = ?`, deviceId);
      expect(users.length, deviceId).toBe(1);
      const userSeq = users[0]!.seq;
      // Each applied exactly once, groups in the order they were sent.
      const rows = await dbRows<{ accuracy: number; latitude: number; recordedAt: string | number | Date }>(
        `SELECT "accuracy", "latitude", "recordedAt" FROM "UserLocation" WHERE "userSeq" = ? ORDER BY "seq"`,
        userSeq,
      );
      const applied = rows.map((r) => r.accuracy);
      const expected = sent.map((g) => g.map((s) => s.tag));
      let at = 0;
      for (const group of expected) {
        const got = applied.slice(at, at + group.length).sort();
        if (JSON.stringify(got) !== JSON.stringify([...group].sort()))
          problems.push(
            `${deviceId}: applied ${JSON.stringify(got)} where ${JSON.stringify(group)} was sent`,
          );
        at += group.length;
      }
      if (applied.length !== at) problems.push(`${deviceId}: ${applied.length} locations for ${at} updates`);
      const times = rows.map((r) => new Date(r.recordedAt).getTime());
      const back = times.findIndex((t, i) => i > 0 && t < times[i - 1]!);
      if (back > 0)
        problems.push(
          `${deviceId}: location ${back} at ${times[back]! - times[back - 1]!} ms after the one before it (${JSON.stringify(rows.slice(back - 1, back + 1))})`,
        );
      // Exactly the entries and exits of the moves, in the order applied, each at its own update.
      const moves: string[] = [];
      let inside = false;
      for (const r of rows) {
        const now = r.latitude === center.lat;
        if (now !== inside)
          moves.push(`${now ? "user.entered_geofence" : "user.exited_geofence"}@${r.accuracy}`);
        inside = now;
      }
      const events = await dbRows<{ type: string; accuracy: number }>(
        `SELECT "type", "accuracy" FROM "Event" WHERE "userSeq" = ? AND "geofenceId" = ? ORDER BY "seq"`,
        userSeq,
        geofenceId,
      );
      const made = events.map((e) => `${e.type}@${e.accuracy}`);
      if (JSON.stringify(made) !== JSON.stringify(moves))
        problems.push(`${deviceId}: events ${JSON.stringify(made)} for moves ${JSON.stringify(moves)}`);
    }
    expect(problems).toEqual([]);
    // What the devices were told is what was stored.
    const stored = await dbRows<{ id: string }>(
      `SELECT "id" FROM "Event" WHERE "geofenceId" = ?`,
      geofenceId,
    );
    expect([...answeredIds].sort()).toEqual(stored.map((e) => e.id).sort());
  }, 120_000);

  it("refuse keys revoked in one millisecond, by another host, in both processes within a second", async () => {
    const cookie = await signIn(FRESH_ACCOUNTS.admin, FRESH_PASSWORD);
    const made = await Promise.all(
      ["first", "second"].map(async (name) => {
        const res = await api("POST", "/api/keys", {
          key: null,
          headers: { cookie },
          json: { kind: "secret", name },
        });
        return res.body as unknown as { key: string; record: { id: string } };
      }),
    );
    const status = async (url: string, key: string) =>
      (await fetch(`${url}/v1/geofences?limit=1`, { headers: { authorization: key } })).status;
    for (const { key } of made)
      for (const url of [baseUrl, other.url]) expect(await status(url, key)).toBe(200);
    // Both revoked at the same instant, which is no later than the newest revocation already stored
    // (another host's clock): straight in the database, as another process would write it.
    const at = new Date(Date.now() - 3_600_000);
    for (const { record } of made)
      await dbRun(`UPDATE "ApiKey" SET "revokedAt" = ? WHERE "id" = ?`, dbDate(at), record.id);
    const revokedAt = Date.now();
    for (const { key } of made)
      for (const url of [baseUrl, other.url]) {
        while ((await status(url, key)) !== 401) {
          expect(Date.now() - revokedAt).toBeLessThan(1000);
          await new Promise((r) => setTimeout(r, 20));
        }
      }
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
