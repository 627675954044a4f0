import { describe, expect, it } from "vitest";
import { api, keys, unique } from "../support/api";

/**
 * Devices whose updates carry the same timestamp (replays, clocks at a whole second, or simply
 * more than 1,000 updates a second): each device's own updates decide what it keeps, and every
 * user stays reachable through the lists' datetime cursor.
 */

type User = { _id: string; deviceId: string; updatedAt: string; location: { coordinates: [number, number] } };

async function track(body: Record<string, unknown>) {
  const res = await api("POST", "/v1/track", { json: body, key: keys.publishable });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.user as User;
}

/** Every user of the window, a page of one at a time, following updatedBefore from the last one. */
async function pageByOne(after: string, before: string): Promise<string[]> {
  const seen: string[] = [];
  for (let pages = 0; pages < 500; pages++) {
    const q = `limit=1&updatedAfter=${encodeURIComponent(after)}&updatedBefore=${encodeURIComponent(before)}`;
    const res = await api("GET", `/v1/users?${q}`);
    const users = res.body.users as User[];
    seen.push(...users.map((u) => u._id));
    if (!res.body.meta.hasMore) return seen;
    before = users[0]!.updatedAt;
  }
  throw new Error("paging did not end");
}

/**
 * Noon of a day in 2019 no other test uses: this file's tests take the days after a random one,
 * a day each (two random days were once the same, and one test paged through the other's users).
 */
const firstDay = Math.floor(Math.random() * 300);
let days = 0;
const randomInstant = () => Date.UTC(2019, 0, 1) + (firstDay + days++) * 86_400_000 + 43_200_000;

describe("updates sharing a timestamp", () => {
  it("stores every acknowledged fix of devices that share one, and pages every user with limit=1", async () => {
    const prefix = unique("same");
    const t = randomInstant();
    const n = 50;
    const devices = Array.from({ length: n }, (_, i) => `${prefix}-${i}`);
    const first: User[] = [];
    for (const deviceId of devices) {
      first.push(
        await track({
          deviceId,
          latitude: 5,
          longitude: 6,
          accuracy: 5,
          updatedAt: new Date(t).toISOString(),
        }),
      );
    }
    // Each device's next fix, 10 ms later than its first, somewhere else.
    for (const [i, deviceId] of devices.entries()) {
      const next = { latitude: 5.001 + i / 1e4, longitude: 6.001 };
      const user = await track({ deviceId, ...next, accuracy: 5, updatedAt: new Date(t + 10).toISOString() });
      expect(user.location.coordinates, `${deviceId}: the answer`).toEqual([next.longitude, next.latitude]);
      const stored = (await api("GET", `/v1/users/${deviceId}`)).body.user as User;
      expect(stored.location.coordinates, `${deviceId}: what is stored`).toEqual([
        next.longitude,
        next.latitude,
      ]);
    }
    // An older fix than the device's own last one still changes nothing.
    const late = await track({
      deviceId: devices[0]!,
      latitude: 7,
      longitude: 8,
      accuracy: 5,
      updatedAt: new Date(t + 5).toISOString(),
    });
    expect(late.location.coordinates).toEqual([6.001, 5.001]);

    const seen = await pageByOne(new Date(t - 1).toISOString(), new Date(t + 3_600_000).toISOString());
    expect(new Set(seen).size, "no user twice").toBe(seen.length);
    expect(seen.sort()).toEqual(first.map((u) => u._id).sort());
  });

  it("pages with limit=1 through users whose updates all carry the very same updatedAt", async () => {
    const prefix = unique("tie3");
    const t = randomInstant();
    const at = new Date(t).toISOString();
    const made = await Promise.all(
      [0, 1, 2].map((i) =>
        track({ deviceId: `${prefix}-${i}`, latitude: 1, longitude: 2, accuracy: 5, updatedAt: at }),
      ),
    );
    const seen = await pageByOne(new Date(t - 1).toISOString(), new Date(t + 60_000).toISOString());
    expect(seen.sort()).toEqual(made.map((u) => u._id).sort());
  });

  it("gives events that happened at one instant distinct createdAt, so paging with createdBefore skips none", async () => {
    const tag = unique("tie-events");
    const t = randomInstant();
    const at = new Date(t).toISOString();
    // A spot in the open ocean (no region events), one geofence there, and three devices that
    // enter it at the very same instant, together.
    const spot = { lat: -41.5 + Math.random(), lng: -130.5 + Math.random() };
    const made = await api("PUT", `/v1/geofences/${tag}/gate`, {
      json: { description: "gate", type: "circle", coordinates: [spot.lng, spot.lat], radius: 200 },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const geofenceId = (made.body.geofence as { _id: string })._id;
    const devices = [0, 1, 2].map((i) => `${tag}-${i}`);
    await Promise.all(
      devices.map((deviceId) =>
        track({ deviceId, latitude: spot.lat, longitude: spot.lng, accuracy: 5, updatedAt: at }),
      ),
    );
    type Event = { _id: string; createdAt: string; actualCreatedAt: string };
    const all = (await api("GET", `/v1/events?geofenceId=${geofenceId}&limit=100`)).body.events as Event[];
    expect(all).toHaveLength(3);
    // When it happened (to the millisecond, moved on by 1 ms per event already there), and when
    // the service made it (now).
    expect(new Set(all.map((e) => e.createdAt)).size).toBe(3);
    for (const e of all) {
      expect(Date.parse(e.createdAt) - t).toBeGreaterThanOrEqual(0);
      expect(Date.parse(e.createdAt) - t).toBeLessThan(10);
      expect(Math.abs(Date.parse(e.actualCreatedAt) - Date.now())).toBeLessThan(60_000);
    }
    const seen: string[] = [];
    let before = new Date(t + 60_000).toISOString();
    for (let pages = 0; pages < 10; pages++) {
      const res = await api(
        "GET",
        `/v1/events?geofenceId=${geofenceId}&limit=1&createdBefore=${encodeURIComponent(before)}`,
      );
      const page = res.body.events as Event[];
      seen.push(...page.map((e) => e._id));
      if (!res.body.meta.hasMore) break;
      before = page.at(-1)!.createdAt;
    }
    expect(seen.sort()).toEqual(all.map((e) => e._id).sort());
  });
});
