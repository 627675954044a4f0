import { describe, expect, it } from "vitest";
import { api, expectError, keys, unique } from "../support/api";
import { dbNumber, dbUsersAt } from "../support/db";
import { metersFrom } from "../support/geo";

type User = Record<string, unknown> & { _id: string; updatedAt: string; deviceId: string; distance?: number };

async function track(body: Record<string, unknown>) {
  const res = await api("POST", "/v1/track", { json: body, key: keys.publishable });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { user: res.body.user as User, events: res.body.events as { _id: string }[] };
}

describe("users", () => {
  it("gets a user by _id, userId or deviceId", async () => {
    const deviceId = unique("dev");
    const userId = unique("usr");
    const { user } = await track({
      deviceId,
      userId,
      latitude: 1,
      longitude: 2,
      accuracy: 5,
      description: "Ann",
    });
    for (const ref of [user._id, userId, deviceId]) {
      const res = await api("GET", `/v1/users/${ref}`);
      expect(res.body.user).toMatchObject({ _id: user._id, userId, deviceId, description: "Ann" });
    }
    expectError(await api("GET", `/v1/users/${unique("nobody")}`), 404, undefined, /not found/);
  });

  it("lists the users last seen in a map view, across the antimeridian too", async () => {
    const at = async (latitude: number, longitude: number) =>
      (await track({ deviceId: unique("view"), latitude, longitude, accuracy: 5 })).user._id;
    const a = await at(-57, 100);
    const b = await at(-57, 100.5);
    const c = await at(-58, -179.5);
    const listed = async (bounds: string) => {
      const res = await api("GET", `/v1/users?limit=1000&bounds=${encodeURIComponent(bounds)}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return (res.body.users as User[]).map((u) => u._id).filter((id) => [a, b, c].includes(id));
    };
    expect(await listed("-57.1,99.9|-56.9,100.1")).toEqual([a]);
    expect((await listed("-57.1,99.9|-56.9,100.6")).sort()).toEqual([a, b].sort());
    expect(await listed("-58.1,179|-57.9,-179")).toEqual([c]);
    expect(await listed("-10,0|10,10")).toEqual([]);
    expectError(await api("GET", "/v1/users?bounds=-57,100|-58,101"), 400, "bounds", /north of/);
  });

  it("lists users newest first and pages with updatedBefore", async () => {
    const t0 = Date.now() - 3_600_000;
    const prefix = unique("page");
    const made: User[] = [];
    for (let i = 0; i < 5; i++) {
      const at = new Date(t0 + i * 1000).toISOString();
      made.push(
        (await track({ deviceId: `${prefix}-${i}`, latitude: 1, longitude: 2, accuracy: 5, updatedAt: at }))
          .user,
      );
    }
    const window = `updatedAfter=${encodeURIComponent(new Date(t0 - 1).toISOString())}&updatedBefore=`;
    const seen: string[] = [];
    let before = new Date(t0 + 5000).toISOString();
    for (;;) {
      const res = await api("GET", `/v1/users?limit=2&${window}${encodeURIComponent(before)}`);
      const page = res.body.users as User[];
      seen.push(...page.filter((u) => u.deviceId.startsWith(prefix)).map((u) => u._id));
      if (!res.body.meta.hasMore) break;
      before = page[page.length - 1]!.updatedAt;
    }
    expect(seen).toEqual(made.map((u) => u._id).reverse());
  });

  it("pages without skips or repeats through users updated at the same moment", async () => {
    // Concurrent first updates of new devices are applied in one commit; replays may carry
    // the very same updatedAt. Either way a page boundary must not fall between equals.
    const prefix = unique("tie");
    const start = new Date(Date.now() - 1).toISOString();
    const concurrent = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        track({ deviceId: `${prefix}-c${i}`, latitude: 1, longitude: 2, accuracy: 5 }),
      ),
    );
    const end = new Date(Date.now() + 1000).toISOString();
    const replayedAt = new Date(Date.UTC(2021, 0, 1) + Math.floor(Math.random() * 86_400_000)).toISOString();
    const replayed = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        track({ deviceId: `${prefix}-r${i}`, latitude: 1, longitude: 2, accuracy: 5, updatedAt: replayedAt }),
      ),
    );
    const pageAll = async (after: string, before: string) => {
      const seen: string[] = [];
      for (;;) {
        const q = `limit=2&updatedAfter=${encodeURIComponent(after)}&updatedBefore=${encodeURIComponent(before)}`;
        const page = (await api("GET", `/v1/users?${q}`)).body;
        const users = page.users as User[];
        seen.push(...users.map((u) => u._id));
        if (!page.meta.hasMore) return seen;
        before = users[users.length - 1]!.updatedAt;
      }
    };
    const live = await pageAll(start, end);
    expect(new Set(live).size).toBe(live.length);
    for (const { user } of concurrent) expect(live).toContain(user._id);
    const hour = 3_600_000;
    const replay = await pageAll(
      new Date(Date.parse(replayedAt) - hour).toISOString(),
      new Date(Date.parse(replayedAt) + hour).toISOString(),
    );
    expect(new Set(replay).size).toBe(replay.length);
    for (const { user } of replayed) expect(replay).toContain(user._id);
  });

  it.each([
    ["limit=0", "limit"],
    ["limit=1001", "limit"],
    ["updatedBefore=nope", "updatedBefore"],
    ["updatedAfter=2026-99-01", "updatedAfter"],
  ])("refuses %s", async (query, param) => {
    expectError(await api("GET", `/v1/users?${query}`), 400, param);
  });

  it("deletes a user with their location history and every event about them", async () => {
    const base = { lat: 12.5, lng: 45.5 };
    const zone = await api("POST", "/v1/geofences", {
      json: { description: "z", type: "circle", coordinates: [base.lng, base.lat], radius: 100 },
    });
    expect(zone.status).toBe(200);
    const deviceId = unique("forget");
    const first = await track({ deviceId, latitude: base.lat, longitude: base.lng, accuracy: 5 });
    await track({ deviceId, latitude: base.lat + 0.1, longitude: base.lng, accuracy: 5 });
    const eventId = first.events[0]!._id;
    await api("PUT", `/v1/events/${eventId}/verification`, { json: { verification: 1 } });
    const seq = await dbNumber(`SELECT "seq" AS n FROM "User" WHERE "id" = ?`, first.user._id);
    expect(await dbNumber(`SELECT COUNT(*) AS n FROM "UserLocation" WHERE "userSeq" = ?`, seq)).toBe(2);
    expect(await dbNumber(`SELECT COUNT(*) AS n FROM "Event" WHERE "userSeq" = ?`, seq)).toBe(2);

    expect((await api("DELETE", `/v1/users/${deviceId}`)).body).toEqual({ meta: { code: 200 } });
    expectError(await api("GET", `/v1/users/${deviceId}`), 404);
    expectError(await api("GET", `/v1/events/${eventId}`), 404);
    for (const table of ["UserLocation", "Event", "UserGeofence"]) {
      expect(await dbNumber(`SELECT COUNT(*) AS n FROM "${table}" WHERE "userSeq" = ?`, seq), table).toBe(0);
    }
    expect(
      await dbNumber(
        `SELECT COUNT(*) AS n FROM "EventVerification" WHERE "eventSeq" NOT IN (SELECT "seq" FROM "Event")`,
      ),
    ).toBe(0);
    expectError(await api("DELETE", `/v1/users/${deviceId}`), 404);
  });

  it("keeps test and live users apart", async () => {
    const deviceId = unique("world");
    await track({ deviceId, latitude: 1, longitude: 2, accuracy: 5 });
    expectError(await api("GET", `/v1/users/${deviceId}`, { key: keys.live }), 404);
  });
});

describe("users of a geofence", () => {
  it("lists the users inside now, by id or by tag/externalId, with either cursor spelling", async () => {
    const base = { lat: -12.5, lng: 60.5 };
    const { north } = metersFrom(base);
    const tag = unique("gu");
    const g = (
      await api("POST", "/v1/geofences", {
        json: {
          description: "g",
          type: "circle",
          coordinates: [base.lng, base.lat],
          radius: 200,
          tag,
          externalId: "x",
        },
      })
    ).body.geofence as { _id: string };
    const t0 = Date.now() - 600_000;
    const inside: User[] = [];
    for (let i = 0; i < 3; i++) {
      const at = new Date(t0 + i * 1000).toISOString();
      inside.push(
        (
          await track({
            deviceId: unique("in"),
            latitude: base.lat,
            longitude: base.lng,
            accuracy: 5,
            updatedAt: at,
          })
        ).user,
      );
    }
    await track({ deviceId: unique("out"), latitude: north(1000), longitude: base.lng, accuracy: 5 });
    const newestFirst = inside.map((u) => u._id).reverse();

    const byId = await api("GET", `/v1/geofences/${g._id}/users`);
    expect((byId.body.users as User[]).map((u) => u._id)).toEqual(newestFirst);
    const byTag = await api("GET", `/v1/geofences/${tag}/x/users?limit=2`);
    expect((byTag.body.users as User[]).map((u) => u._id)).toEqual(newestFirst.slice(0, 2));
    expect(byTag.body.meta.hasMore).toBe(true);
    for (const name of ["updatedBefore", "updateBefore"]) {
      const res = await api(
        "GET",
        `/v1/geofences/${g._id}/users?${name}=${encodeURIComponent(inside[2]!.updatedAt)}`,
      );
      expect(
        (res.body.users as User[]).map((u) => u._id),
        name,
      ).toEqual(newestFirst.slice(1));
    }
    expectError(await api("GET", `/v1/geofences/${tag}/nope/users`), 404);
    expectError(await api("GET", `/v1/geofences/${g._id}/users?limit=0`), 400, "limit");
  });
});

describe("users of a geofence, updated at the same moment", () => {
  it("pages through all of them without skips or repeats", async () => {
    const center = { lat: -22.5, lng: 61.5 };
    const g = (
      await api("POST", "/v1/geofences", {
        json: { description: "tie", type: "circle", coordinates: [center.lng, center.lat], radius: 500 },
      })
    ).body.geofence as { _id: string };
    const at = new Date(Date.now() - 120_000).toISOString();
    const prefix = unique("gtie");
    const made = await Promise.all(
      Array.from({ length: 7 }, (_, i) =>
        track({
          deviceId: `${prefix}-${i}`,
          latitude: center.lat,
          longitude: center.lng,
          accuracy: 5,
          updatedAt: at,
        }),
      ),
    );
    const seen: string[] = [];
    let cursor = "";
    for (;;) {
      const res = await api("GET", `/v1/geofences/${g._id}/users?limit=2${cursor}`);
      const users = res.body.users as User[];
      seen.push(...users.map((u) => u._id));
      if (!res.body.meta.hasMore) break;
      cursor = `&updatedBefore=${encodeURIComponent(users[users.length - 1]!.updatedAt)}`;
    }
    expect(seen.sort()).toEqual(made.map((m) => m.user._id).sort());
  });
});

describe("search users", () => {
  it("finds users near a point, nearest first, within the radius", async () => {
    const base = { lat: 33.3, lng: -140.7 };
    const { north } = metersFrom(base);
    const ids: string[] = [];
    for (const d of [900, 100, 500, 1500]) {
      ids.push(
        (await track({ deviceId: unique("near"), latitude: north(d), longitude: base.lng, accuracy: 5 })).user
          ._id,
      );
    }
    const res = await api("GET", `/v1/search/users?near=${base.lat},${base.lng}&radius=1000`);
    const users = res.body.users as User[];
    expect(users.map((u) => u._id)).toEqual([ids[1], ids[2], ids[0]]);
    expect(users[0]!.distance).toBeCloseTo(100, 0);
    const one = await api("GET", `/v1/search/users?near=${base.lat},${base.lng}&radius=1000&limit=1`);
    expect((one.body.users as User[]).map((u) => u._id)).toEqual([ids[1]]);
  });

  it("follows a user who moves, within its grid cell and across cells", async () => {
    // The index keeps each user's 0.01° cell, so both kinds of move must show in searches.
    const base = { lat: 33.354, lng: -141.354 };
    const { north } = metersFrom(base);
    const deviceId = unique("mover");
    const near = (lat: number, radius: number) =>
      api("GET", `/v1/search/users?near=${lat},${base.lng}&radius=${radius}`).then((r) =>
        (r.body.users as (User & { distance: number })[]).filter((u) => u.deviceId === deviceId),
      );
    await track({ deviceId, latitude: base.lat, longitude: base.lng, accuracy: 5 });
    await track({ deviceId, latitude: north(200), longitude: base.lng, accuracy: 5 });
    expect(await near(base.lat, 150)).toEqual([]);
    expect((await near(north(200), 100))[0]!.distance).toBeCloseTo(0, 0);
    await track({ deviceId, latitude: north(3000), longitude: base.lng, accuracy: 5 });
    expect(await near(north(200), 1000)).toEqual([]);
    expect(await near(north(3000), 100)).toHaveLength(1);
  });

  it.each([
    ["", "near"],
    ["near=1,2&radius=50", "radius"],
    ["near=1,2&limit=5000", "limit"],
  ])("refuses %j", async (query, param) => {
    expectError(await api("GET", `/v1/search/users?${query}`), 400, param);
  });

  it("needs the secret key", async () => {
    expectError(await api("GET", "/v1/search/users?near=1,2", { key: keys.publishable }), 403);
  });
});

describe("context", () => {
  it("returns the enabled geofences containing the point, and stores nothing", async () => {
    const base = { lat: 41.1, lng: 20.2 };
    const make = (radius: number, enabled = true) =>
      api("POST", "/v1/geofences", {
        json: { description: "c", type: "circle", coordinates: [base.lng, base.lat], radius, enabled },
      }).then((r) => (r.body.geofence as { _id: string })._id);
    const small = await make(50);
    const big = await make(500);
    await make(300, false);
    const res = await api("GET", `/v1/context?coordinates=${base.lat},${base.lng}`, {
      key: keys.publishable,
    });
    const ids = (res.body.context as { geofences: { _id: string }[] }).geofences.map((g) => g._id).sort();
    expect(ids).toEqual([small, big].sort());
    expect(res.body.geofences).toEqual((res.body.context as { geofences: unknown }).geofences);
    expect(res.body.context).toMatchObject({ live: false });
    expect(await dbUsersAt(base)).toBe(0);
  });

  it.each([
    ["", /required/],
    ["coordinates=1", /latitude>,<longitude/],
    ["coordinates=1,200", /longitude/],
  ])("refuses %j", async (query, message) => {
    expectError(
      await api("GET", `/v1/context?${query}`, { key: keys.publishable }),
      400,
      "coordinates",
      message,
    );
  });
});

describe("events", () => {
  it("lists events newest first with cursors", async () => {
    const base = { lat: -40.4, lng: -10.1 };
    await api("POST", "/v1/geofences", {
      json: { description: "e", type: "circle", coordinates: [base.lng, base.lat], radius: 100 },
    });
    const made: string[] = [];
    for (let i = 0; i < 3; i++) {
      made.push(
        (await track({ deviceId: unique("ev"), latitude: base.lat, longitude: base.lng, accuracy: 5 }))
          .events[0]!._id,
      );
    }
    // Other test files add events meanwhile: look at ours only.
    const res = await api("GET", "/v1/events?limit=1000");
    const events = res.body.events as { _id: string; createdAt: string }[];
    expect(events.map((e) => e._id).filter((id) => made.includes(id))).toEqual([...made].reverse());
    const newest = events.find((e) => e._id === made[2])!;
    const older = await api(
      "GET",
      `/v1/events?limit=1000&createdBefore=${encodeURIComponent(newest.createdAt)}`,
    );
    const olderIds = (older.body.events as { _id: string }[]).map((e) => e._id);
    expect(olderIds.filter((id) => made.includes(id))).toEqual([made[1], made[0]]);
    expectError(await api("GET", "/v1/events?createdAfter=garbage"), 400, "createdAfter");
  });

  it("filters on the server by verification, type, confidence, user and geofence", async () => {
    const base = { lat: -40.6, lng: -10.3 };
    const fence = await api("POST", "/v1/geofences", {
      json: { description: "filters", type: "circle", coordinates: [base.lng, base.lat], radius: 100 },
    });
    const geofenceId = (fence.body.geofence as { _id: string })._id;
    const deviceId = unique("filter");
    const inside = await track({ deviceId, latitude: base.lat, longitude: base.lng, accuracy: 5 });
    const entry = inside.events[0]!._id;
    const away = await track({ deviceId, latitude: base.lat + 0.05, longitude: base.lng, accuracy: 5 });
    const exit = away.events[0]!._id;
    const other = (
      await track({ deviceId: unique("filter"), latitude: base.lat, longitude: base.lng, accuracy: 5 })
    ).events[0]!._id;
    await api("PUT", `/v1/events/${entry}/verification`, { json: { verification: 1 } });
    const ids = async (query: string) => {
      const res = await api("GET", `/v1/events?limit=1000&${query}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return (res.body.events as { _id: string }[])
        .map((e) => e._id)
        .filter((id) => [entry, exit, other].includes(id));
    };
    expect(await ids("verification=accepted")).toEqual([entry]);
    expect((await ids("verification=unverified,rejected")).sort()).toEqual([exit, other].sort());
    expect(await ids("types=user.exited_geofence")).toEqual([exit]);
    expect(await ids(`userId=${inside.user._id}`)).toEqual([exit, entry]);
    expect((await ids(`geofenceId=${geofenceId}`)).sort()).toEqual([entry, exit, other].sort());
    expect(await ids(`userId=${inside.user._id}&types=user.entered_geofence&verification=accepted`)).toEqual([
      entry,
    ]);
    expect(await ids("userId=nobody")).toEqual([]);
    const confidence = (await api("GET", `/v1/events/${entry}`)).body.event as { confidence: number };
    const name = ({ 3: "high", 2: "medium", 1: "low" } as const)[confidence.confidence as 1 | 2 | 3];
    expect(await ids(`geofenceId=${geofenceId}&confidence=${name}&types=user.entered_geofence`)).toContain(
      entry,
    );
    expect(
      await ids(
        `confidence=${["high", "medium", "low"].filter((c) => c !== name).join(",")}&userId=${inside.user._id}&types=user.entered_geofence`,
      ),
    ).toEqual([]);
    expectError(await api("GET", "/v1/events?confidence=3"), 400, "confidence", /high, medium, low/);
    expectError(await api("GET", "/v1/events?verification=maybe"), 400, "verification", /accepted, rejected/);
    expectError(await api("GET", "/v1/events?types=user.flew"), 400, "types", /'user.flew'/);
  });

  it("filters on every type tracking makes, region entries and exits included", async () => {
    const deviceId = unique("regions");
    // Strasbourg (France), then Kehl (Germany), across the Rhine: country and state changes.
    const first = await track({ deviceId, latitude: 48.5734, longitude: 7.7521, accuracy: 20 });
    const second = await track({ deviceId, latitude: 48.5724, longitude: 7.8156, accuracy: 20 });
    const made = [...first.events, ...second.events] as { _id: string; type: string }[];
    const types = [...new Set(made.map((e) => e.type))];
    expect(types).toEqual(
      expect.arrayContaining(["user.entered_region_country", "user.exited_region_country"]),
    );
    for (const type of types) {
      const res = await api("GET", `/v1/events?limit=1000&userId=${first.user._id}&types=${type}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const listed = (res.body.events as { _id: string; type: string }[]).map((e) => e._id).sort();
      expect(listed, type).toEqual(
        made
          .filter((e) => e.type === type)
          .map((e) => e._id)
          .sort(),
      );
    }
  });

  it("deletes an event", async () => {
    const base = { lat: -41.4, lng: -11.1 };
    await api("POST", "/v1/geofences", {
      json: { description: "e", type: "circle", coordinates: [base.lng, base.lat], radius: 100 },
    });
    const id = (
      await track({ deviceId: unique("del"), latitude: base.lat, longitude: base.lng, accuracy: 5 })
    ).events[0]!._id;
    expect((await api("DELETE", `/v1/events/${id}`)).body).toEqual({ meta: { code: 200 } });
    expectError(await api("GET", `/v1/events/${id}`), 404);
  });

  it("records every verification with its time and key", async () => {
    const base = { lat: -42.4, lng: -12.1 };
    await api("POST", "/v1/geofences", {
      json: { description: "e", type: "circle", coordinates: [base.lng, base.lat], radius: 100 },
    });
    const id = (
      await track({ deviceId: unique("hist"), latitude: base.lat, longitude: base.lng, accuracy: 5 })
    ).events[0]!._id;
    for (const v of [1, -1, 0])
      await api("PUT", `/v1/events/${id}/verification`, { json: { verification: v } });
    const seq = await dbNumber(`SELECT "seq" AS n FROM "Event" WHERE "id" = ?`, id);
    expect(
      await dbNumber(
        `SELECT COUNT(*) AS n FROM "EventVerification" WHERE "eventSeq" = ? AND "keyId" IS NOT NULL`,
        seq,
      ),
    ).toBe(3);
  });
});
