import { describe, expect, it } from "vitest";
import { api, keys, unique } from "../support/api";
import { dbDate, dbRun } from "../support/db";

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

  it("keeps 40 devices' entries at exactly their instant, and pages events, users and geofences with limit 7 listing each once", async () => {
    const tag = unique("tie-events");
    const t = randomInstant();
    const at = new Date(t).toISOString();
    // A spot in the open ocean (no region events), one geofence there, and 40 devices that
    // enter it at the very same instant, together.
    const spot = { lat: -41.5 + Math.random(), lng: -130.5 + Math.random() };
    const made = await api("PUT", `/v1/geofences/${tag}/gate`, {
      json: { description: "gate", type: "circle", coordinates: [spot.lng, spot.lat], radius: 200 },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const geofenceId = (made.body.geofence as { _id: string })._id;
    const devices = Array.from({ length: 40 }, (_, i) => `${tag}-${i}`);
    const users = await Promise.all(
      devices.map((deviceId) =>
        track({ deviceId, latitude: spot.lat, longitude: spot.lng, accuracy: 5, updatedAt: at }),
      ),
    );
    expect(users.map((u) => u.updatedAt)).toEqual(devices.map(() => at));
    type Event = { _id: string; createdAt: string; actualCreatedAt: string };
    const all = (await api("GET", `/v1/events?geofenceId=${geofenceId}&limit=100`)).body.events as Event[];
    expect(all).toHaveLength(40);
    // When it happened, to the millisecond and never moved; and when the service made it (now).
    for (const e of all) {
      expect(e.createdAt).toBe(at);
      expect(Math.abs(Date.parse(e.actualCreatedAt) - Date.now())).toBeLessThan(60_000);
    }
    // Seven more events, one a millisecond before and after the group and five an hour before,
    // so pages end before the group, hold it whole past the limit, and go on after it.
    const around = [-1, 1, -3_600_000, -3_600_001, -3_600_002, -3_600_003, -3_600_004];
    for (const [i, dt] of around.entries()) {
      const far = { latitude: spot.lat + 0.01, longitude: spot.lng };
      const deviceId = `${tag}-around-${i}`;
      await track({ deviceId, ...far, accuracy: 5, updatedAt: new Date(t + dt - 10).toISOString() });
      await track({
        deviceId,
        latitude: spot.lat,
        longitude: spot.lng,
        accuracy: 5,
        updatedAt: new Date(t + dt).toISOString(),
      });
    }
    const listed = await pageEvents(`geofenceId=${geofenceId}&types=user.entered_geofence`, 7);
    expect(listed.pages[1], "the second page: the whole group of 40, past the limit").toHaveLength(40);
    expect(new Set(listed.ids).size, "no event twice").toBe(listed.ids.length);
    expect(listed.ids).toHaveLength(47);

    const window = `updatedAfter=${encodeURIComponent(new Date(t - 3_700_000).toISOString())}`;
    const end = new Date(t + 60_000).toISOString();
    const seenUsers = await pageBy7(`/v1/users?${window}`, "users", "updatedAt", "updatedBefore", end);
    const ours = seenUsers.filter((id) => users.some((u) => u._id === id));
    expect(new Set(seenUsers).size, "no user twice").toBe(seenUsers.length);
    expect(ours.sort()).toEqual(users.map((u) => u._id).sort());
    const inside = await pageBy7(
      `/v1/geofences/${geofenceId}/users?${window}`,
      "users",
      "updatedAt",
      "updatedBefore",
      end,
    );
    expect(new Set(inside).size).toBe(inside.length);
    expect(inside).toHaveLength(47);

    // Geofences created at one instant (two processes' clocks, an import): the same rule.
    const gtag = unique("tie-geofences");
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await api("PUT", `/v1/geofences/${gtag}/g${i}`, {
        json: { description: `g${i}`, type: "circle", coordinates: [spot.lng, spot.lat], radius: 100 },
      });
      ids.push((res.body.geofence as { _id: string })._id);
    }
    // Ten of them (g3 to g12) share one createdAt; each change makes its version later.
    await dbRun(
      `UPDATE "Geofence" SET "createdAt" = ?, "updatedAt" = ? WHERE "tag" = ? AND "externalId" IN (${[3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map((i) => `'g${i}'`).join(",")})`,
      dbDate(new Date(Date.now() - 60_000)),
      dbDate(new Date(Date.now() + 1_000)),
      gtag,
    );
    const seenGeofences = await pageBy7(
      `/v1/geofences?tag=${gtag}`,
      "geofences",
      "createdAt",
      "createdBefore",
    );
    expect(new Set(seenGeofences).size, "no geofence twice").toBe(seenGeofences.length);
    expect(seenGeofences.sort()).toEqual(ids.sort());
  });
});

/** Every event of a filter, `limit` a page, following createdBefore from the last one. */
async function pageEvents(filter: string, limit: number): Promise<{ ids: string[]; pages: string[][] }> {
  const pages: string[][] = [];
  let before = "";
  for (let n = 0; n < 50; n++) {
    const res = await api("GET", `/v1/events?${filter}&limit=${limit}${before}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const events = res.body.events as { _id: string; createdAt: string }[];
    pages.push(events.map((e) => e._id));
    if (!res.body.meta.hasMore) return { ids: pages.flat(), pages };
    before = `&createdBefore=${encodeURIComponent(events.at(-1)!.createdAt)}`;
  }
  throw new Error("paging did not end");
}

/** Every record of a list, 7 a page, following `cursor` from the last one's `field`. */
async function pageBy7(
  path: string,
  key: string,
  field: string,
  cursor: string,
  from?: string,
): Promise<string[]> {
  const seen: string[] = [];
  let next = from ? `&${cursor}=${encodeURIComponent(from)}` : "";
  for (let n = 0; n < 500; n++) {
    const res = await api("GET", `${path}&limit=7${next}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const rows = res.body[key] as Record<string, string>[];
    seen.push(...rows.map((r) => r._id!));
    if (!res.body.meta.hasMore) return seen;
    next = `&${cursor}=${encodeURIComponent(rows.at(-1)![field]!)}`;
  }
  throw new Error("paging did not end");
}
