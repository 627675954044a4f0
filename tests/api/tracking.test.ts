import { describe, expect, it } from "vitest";
import { api, expectError, keys, unique } from "../support/api";
import { metersFrom } from "../support/geo";

/**
 * Movement scenarios over HTTP. Each test has its own place on the map (a distinct base), its
 * own devices and geofences, so tests run in parallel on one database.
 */

type Event = Record<string, unknown> & { _id: string; type: string; confidence: number; duration?: number };
type User = Record<string, unknown> & { _id: string; geofences: { _id: string; externalId?: string }[] };

let nextBase = 0;
/** A fresh spot on the map, far from every other test's. */
function place() {
  const base = {
    lat: -30 + (nextBase % 50) * 0.5,
    lng: 100 + Math.floor(nextBase++ / 50) * 0.5 + Math.random() * 0.1,
  };
  return { base, ...metersFrom(base) };
}

const T0 = Date.parse("2026-11-01T12:00:00.000Z");
const minutes = (m: number) => new Date(T0 + m * 60_000).toISOString();

async function circle(
  base: { lat: number; lng: number },
  radius: number,
  extra: Record<string, unknown> = {},
) {
  const tag = unique("trk");
  const res = await api("POST", "/v1/geofences", {
    json: {
      description: "zone",
      type: "circle",
      coordinates: [base.lng, base.lat],
      radius,
      tag,
      externalId: "z",
      ...extra,
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.geofence as { _id: string; tag: string };
}

async function track(body: Record<string, unknown>, key = keys.publishable) {
  const res = await api("POST", "/v1/track", { json: body, key });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { user: res.body.user as User, events: res.body.events as Event[] };
}

const types = (events: Event[]) => events.map((e) => e.type);

describe("track: geofence events", () => {
  it("enters, dwells, exits with a duration, and can enter again", async () => {
    const { base, north } = place();
    const g = await circle(base, 200, { dwellThreshold: 3 });
    const deviceId = unique("dev");
    const at = (m: number, lat = base.lat) => ({
      deviceId,
      latitude: lat,
      longitude: base.lng,
      accuracy: 10,
      updatedAt: minutes(m),
    });

    const first = await track(at(0));
    expect(types(first.events)).toEqual(["user.entered_geofence"]);
    expect(first.events[0]).toMatchObject({ confidence: 3, verification: 0, geofence: { _id: g._id } });
    expect(first.events[0]!.geofence).not.toHaveProperty("geometry");
    expect(first.user.geofences.map((x) => x._id)).toEqual([g._id]);

    expect(types((await track(at(1))).events)).toEqual([]);
    expect(types((await track(at(3))).events)).toEqual(["user.dwelled_in_geofence"]);
    expect(types((await track(at(4))).events)).toEqual([]);

    const exit = await track(at(10, north(500)));
    expect(types(exit.events)).toEqual(["user.exited_geofence"]);
    expect(exit.events[0]!.duration).toBe(10);
    expect(exit.user.geofences).toEqual([]);
    expect(types((await track(at(11, north(600)))).events)).toEqual([]);

    expect(types((await track(at(12))).events)).toEqual(["user.entered_geofence"]);
  });

  it("does not flip a user in and out when a poor fix grazes the boundary", async () => {
    const { base, north } = place();
    await circle(base, 200);
    const deviceId = unique("dev");
    const at = (m: number, d: number, accuracy: number) => ({
      deviceId,
      latitude: north(d),
      longitude: base.lng,
      accuracy,
      updatedAt: minutes(m),
    });
    // Outside, with an accuracy circle that reaches a little into the geofence: no entry.
    expect(types((await track(at(0, 230, 60))).events)).toEqual([]);
    // Center just inside but most of a huge accuracy circle outside: still no entry.
    expect(types((await track(at(1, 195, 400))).events)).toEqual([]);
    // Clearly inside.
    expect(types((await track(at(2, 50, 10))).events)).toEqual(["user.entered_geofence"]);
    // Center just outside, but a third of the accuracy circle is inside: stays in (hysteresis).
    expect(types((await track(at(3, 215, 60))).events)).toEqual([]);
    expect(types((await track(at(4, 100, 10))).events)).toEqual([]);
    // Clearly outside.
    expect(types((await track(at(5, 400, 10))).events)).toEqual(["user.exited_geofence"]);
  });

  it("handles overlapping geofences independently", async () => {
    const { base, east } = place();
    const a = await circle(base, 300);
    const b = await circle({ lat: base.lat, lng: east(400) }, 300);
    const deviceId = unique("dev");
    const at = (m: number, x: number) => ({
      deviceId,
      latitude: base.lat,
      longitude: east(x),
      accuracy: 5,
      updatedAt: minutes(m),
    });
    const inA = await track(at(0, -100));
    expect(inA.events.map((e) => (e.geofence as { _id: string })._id)).toEqual([a._id]);
    const inBoth = await track(at(1, 200));
    expect(inBoth.events.map((e) => [e.type, (e.geofence as { _id: string })._id])).toEqual([
      ["user.entered_geofence", b._id],
    ]);
    expect(inBoth.user.geofences.map((g) => g._id).sort()).toEqual([a._id, b._id].sort());
    const inB = await track(at(2, 500));
    expect(inB.events.map((e) => [e.type, (e.geofence as { _id: string })._id])).toEqual([
      ["user.exited_geofence", a._id],
    ]);
  });

  it("ignores updates older than the last one", async () => {
    const { base, north } = place();
    await circle(base, 200);
    const deviceId = unique("dev");
    await track({
      deviceId,
      latitude: north(1000),
      longitude: base.lng,
      accuracy: 10,
      updatedAt: minutes(10),
    });
    const old = await track({
      deviceId,
      latitude: base.lat,
      longitude: base.lng,
      accuracy: 10,
      updatedAt: minutes(5),
    });
    expect(old.events).toEqual([]);
    expect(old.user.location).toEqual({ type: "Point", coordinates: [base.lng, north(1000)] });
    expect(old.user.updatedAt).toBe(minutes(10));
  });

  it("makes no events for disabled geofences", async () => {
    const { base } = place();
    await circle(base, 200, { enabled: false });
    const { events, user } = await track({
      deviceId: unique("dev"),
      latitude: base.lat,
      longitude: base.lng,
      accuracy: 10,
    });
    expect(events).toEqual([]);
    expect(user.geofences).toEqual([]);
  });

  it("takes users out of a geofence that is moved away or deleted", async () => {
    const { base, north } = place();
    const g = await circle(base, 200);
    const deviceId = unique("dev");
    await track({ deviceId, latitude: base.lat, longitude: base.lng, accuracy: 10 });
    expect((await api("GET", `/v1/geofences/${g._id}/users`)).body.users).toHaveLength(1);

    await api("PUT", `/v1/geofences/${g.tag}/z`, {
      json: { description: "moved", type: "circle", coordinates: [base.lng, north(2000)], radius: 200 },
    });
    expect((await api("GET", `/v1/geofences/${g._id}/users`)).body.users).toEqual([]);
    expect(((await api("GET", `/v1/users/${deviceId}`)).body.user as User).geofences).toEqual([]);

    const h = await circle(base, 300);
    await track({ deviceId, latitude: base.lat, longitude: base.lng, accuracy: 10 });
    expect(
      ((await api("GET", `/v1/users/${deviceId}`)).body.user as User).geofences.map((x) => x._id),
    ).toEqual([h._id]);
    await api("DELETE", `/v1/geofences/${h._id}`);
    expect(((await api("GET", `/v1/users/${deviceId}`)).body.user as User).geofences).toEqual([]);
  });

  it("decides each update against the geofence as it is now, after edits of its fields and shape", async () => {
    const { base, north } = place();
    const g = await circle(base, 200);
    const at = { latitude: base.lat, longitude: base.lng, accuracy: 10 };
    /** What a new device's entry at `at` says of the geofences it entered. */
    const entered = async () =>
      (await track({ deviceId: unique("dev"), ...at })).events
        .filter((e) => e.type === "user.entered_geofence")
        .map((e) => e.geofence as { _id: string; description: string; metadata?: unknown });
    expect((await entered()).map((x) => [x._id, x.description])).toEqual([[g._id, "zone"]]);

    await api("PATCH", `/v1/geofences/${g._id}`, { json: { description: "renamed", metadata: { v: 2 } } });
    expect((await entered()).map((x) => [x.description, x.metadata])).toEqual([["renamed", { v: 2 }]]);

    await api("PATCH", `/v1/geofences/${g._id}`, { json: { coordinates: [base.lng, north(2000)] } });
    expect(await entered()).toEqual([]);
  });

  it("never makes duplicate events from concurrent updates of one device", async () => {
    const { base } = place();
    await circle(base, 200);
    const deviceId = unique("dev");
    const body = { deviceId, latitude: base.lat, longitude: base.lng, accuracy: 10 };
    const results = await Promise.all(Array.from({ length: 20 }, () => track(body)));
    expect(results.flatMap((r) => types(r.events))).toEqual(["user.entered_geofence"]);
    expect(new Set(results.map((r) => r.user._id)).size).toBe(1);
  });
});

describe("track: under load", () => {
  it("lets other writes through while devices track at full speed, and answers every update", async () => {
    const { base, north } = place();
    const fence = await circle(base, 300);
    let tracking = true;
    const answered: number[] = [];
    // Sixteen devices report back to back, in and out of the geofence (every update writes): a
    // scripted drive, so with the secret key (a publishable key's device is rate-limited past
    // its burst).
    const devices = Array.from({ length: 16 }, async (_, d) => {
      const deviceId = unique(`load${d}`);
      for (let i = 0; tracking; i++) {
        const res = await api("POST", "/v1/track", {
          key: keys.secret,
          json: { deviceId, latitude: north(i % 2 ? 1000 : 0), longitude: base.lng, accuracy: 10 },
        });
        answered.push(res.status);
      }
    });
    // Meanwhile, edits of the kind the dashboard makes: each must land, none may wait long.
    const slowest: number[] = [];
    for (let i = 0; i < 20; i++) {
      const started = Date.now();
      const res = await api("PATCH", `/v1/geofences/${fence._id}`, { json: { description: `edit ${i}` } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const created = await api("POST", "/v1/geofences", {
        json: {
          description: `beside ${i}`,
          type: "circle",
          coordinates: [base.lng + 0.05, base.lat],
          radius: 50,
        },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      slowest.push(Date.now() - started);
    }
    tracking = false;
    await Promise.all(devices);
    expect(answered.length).toBeGreaterThan(100);
    expect(answered.filter((s) => s !== 200)).toEqual([]);
    // SQLite's busy handler gives up after 5 s; a fair lock answers in a few batches' time.
    expect(Math.max(...slowest)).toBeLessThan(2_000);
  });
});

describe("verification feeds confidence", () => {
  /** An entry whose location is `inside` meters inside a 200 m circle's edge, with 50 m accuracy. */
  const edgeEntry = async (
    base: { lat: number; lng: number },
    north: (m: number) => number,
    inside: number,
  ) =>
    (
      await track({
        deviceId: unique("dev"),
        latitude: north(200 - inside),
        longitude: base.lng,
        accuracy: 50,
      })
    ).events[0]!;

  it("accepting edge entries raises the confidence of later ones", async () => {
    const { base, north } = place();
    await circle(base, 200);
    const first = await edgeEntry(base, north, 3);
    expect(first.confidence).toBe(1);
    for (let i = 0; i < 3; i++) {
      const e = await edgeEntry(base, north, 3);
      expect(
        (await api("PUT", `/v1/events/${e._id}/verification`, { json: { verification: 1 } })).status,
      ).toBe(200);
    }
    expect((await edgeEntry(base, north, 3)).confidence).toBe(2);
  });

  it("rejecting edge entries lowers the confidence of later ones, and unverifying undoes it", async () => {
    const { base, north } = place();
    await circle(base, 200);
    expect((await edgeEntry(base, north, 25)).confidence).toBe(2);
    const rejected: Event[] = [];
    for (let i = 0; i < 3; i++) {
      const e = await edgeEntry(base, north, 25);
      rejected.push(e);
      await api("PUT", `/v1/events/${e._id}/verification`, { json: { verification: -1 } });
    }
    expect((await edgeEntry(base, north, 25)).confidence).toBe(1);
    for (const e of rejected)
      await api("PUT", `/v1/events/${e._id}/verification`, { form: { verification: "0" } });
    expect((await edgeEntry(base, north, 25)).confidence).toBe(2);
  });

  it("rejecting entries whose fix was wholly inside lowers later ones too", async () => {
    // Geometry is never certain (multipath, spoofing, a badly drawn fence): staff overrule it.
    const { base } = place();
    await circle(base, 200);
    const centre = async () =>
      (await track({ deviceId: unique("dev"), latitude: base.lat, longitude: base.lng, accuracy: 10 }))
        .events[0]!;
    const seen: number[] = [];
    for (let i = 0; i < 2; i++) {
      const e = await centre();
      seen.push(e.confidence);
      await api("PUT", `/v1/events/${e._id}/verification`, { json: { verification: -1 } });
    }
    seen.push((await centre()).confidence);
    expect(seen).toEqual([3, 2, 1]);
    // Acceptances win it back: 2 rejected, 30 accepted (94%, medium; 36 accepted: 95%, high).
    for (let i = 0; i < 36; i++) {
      const e = await centre();
      await api("PUT", `/v1/events/${e._id}/verification`, { json: { verification: 1 } });
      if (i === 29) expect((await centre()).confidence).toBe(2);
    }
    expect((await centre()).confidence).toBe(3);
  });

  it("rejecting region entries lowers the confidence of later ones", async () => {
    // In the live world, where no other test tracks in Iceland.
    const enter = async () =>
      (
        await track({ deviceId: unique("ice"), latitude: 64.14, longitude: -21.94, accuracy: 10 }, keys.live)
      ).events.find((e) => e.type === "user.entered_region_country")!;
    const first = await enter();
    expect(first).toMatchObject({ confidence: 3, region: { code: "IS" } });
    const verify = (id: string, verification: number) =>
      api("PUT", `/v1/events/${id}/verification`, { json: { verification }, key: keys.live });
    await verify(first._id, -1);
    const second = await enter();
    expect(second.confidence).toBe(2);
    await verify(second._id, -1);
    expect((await enter()).confidence).toBe(1);
    await verify(first._id, 0);
    await verify(second._id, 0);
    expect((await enter()).confidence).toBe(3);
  });

  it("moves freely between accepted, rejected and unverified", async () => {
    const { base } = place();
    await circle(base, 200);
    const { events } = await track({
      deviceId: unique("dev"),
      latitude: base.lat,
      longitude: base.lng,
      accuracy: 10,
    });
    const id = events[0]!._id;
    for (const v of [1, -1, 0, -1, 1]) {
      const res = await api("PUT", `/v1/events/${id}/verification`, { json: { verification: v } });
      expect(res.body.event).toMatchObject({ _id: id, verification: v });
    }
    expect((await api("GET", `/v1/events/${id}`)).body.event).toMatchObject({ verification: 1 });
  });

  it.each([
    [{ verification: 2 }, "verification", /1 \(accept\), -1 \(reject\) or 0/],
    [{ verification: "yes" }, "verification", /1 \(accept\)/],
    [{}, "verification", /required/],
    [{ verification: 1, verifiedPlaceId: "abc" }, "verifiedPlaceId", /user.entered_place/],
  ])("refuses %j", async (body, param, message) => {
    const { base } = place();
    await circle(base, 200);
    const { events } = await track({
      deviceId: unique("dev"),
      latitude: base.lat,
      longitude: base.lng,
      accuracy: 10,
    });
    expectError(
      await api("PUT", `/v1/events/${events[0]!._id}/verification`, { json: body }),
      400,
      param,
      message,
    );
    expect((await api("GET", `/v1/events/${events[0]!._id}`)).body.event).toMatchObject({ verification: 0 });
  });

  it("answers 404 for an unknown event", async () => {
    expectError(
      await api("PUT", "/v1/events/000000000000000000000000/verification", { json: { verification: 1 } }),
      404,
    );
    expectError(await api("GET", "/v1/events/000000000000000000000000"), 404);
    expectError(await api("DELETE", "/v1/events/000000000000000000000000"), 404);
  });
});

describe("track: bad input", () => {
  const ok = { deviceId: "d", latitude: 10, longitude: 10, accuracy: 10 };
  it.each([
    ["missing deviceId", { ...ok, deviceId: undefined }, "deviceId", /required/],
    ["missing latitude", { ...ok, latitude: undefined }, "latitude", /required/],
    ["latitude out of range", { ...ok, latitude: 91 }, "latitude", /between -90 and 90/],
    ["longitude not a number", { ...ok, longitude: "east" }, "longitude", /number/],
    ["missing accuracy", { ...ok, accuracy: undefined }, "accuracy", /required/],
    ["negative accuracy", { ...ok, accuracy: -1 }, "accuracy", /between 0/],
    [
      "metadata with 33 keys",
      { ...ok, metadata: Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`k${i}`, i])) },
      "metadata",
      /32 keys/,
    ],
    [
      "updatedAt in the future",
      { ...ok, updatedAt: new Date(Date.now() + 3_600_000).toISOString() },
      "updatedAt",
      /future/,
    ],
    ["updatedAt that is not a date", { ...ok, updatedAt: "soon" }, "updatedAt", /ISO 8601/],
    ["foreground that is not a boolean", { ...ok, foreground: "maybe" }, "foreground", /true or false/],
  ])("refuses %s", async (_name, body, param, message) => {
    const deviceId = unique("bad");
    const res = await api("POST", "/v1/track", {
      json: { ...body, deviceId: body.deviceId && deviceId },
      key: keys.publishable,
    });
    expectError(res, 400, param, message);
    if (body.deviceId) expectError(await api("GET", `/v1/users/${deviceId}`), 404);
  });

  it("needs a key", async () => {
    expectError(await api("POST", "/v1/track", { json: ok, key: null }), 401);
  });

  it("accepts the body radar-sdk-js sends: extra fields, and nulls for what it does not know", async () => {
    const deviceId = unique("sdk");
    const res = await api("POST", "/v1/track", {
      key: keys.publishable,
      json: {
        latitude: 40.7,
        longitude: -73.9,
        accuracy: 35,
        locationAuthorization: "GRANTED_FOREGROUND",
        description: null,
        deviceId,
        deviceType: "Web",
        foreground: true,
        installId: "abc",
        sessionId: "1700000000",
        metadata: null,
        sdkVersion: "4.4.0",
        stopped: true,
        userId: null,
        tripOptions: null,
        timeZone: "America/New_York",
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.user).toMatchObject({ deviceId, deviceType: "Web", foreground: true, stopped: true });
    expect(res.body.user).not.toHaveProperty("userId");
    // No geofence or imported place here; a first location in the US enters its regions.
    expect((res.body.events as { type: string }[]).map((e) => e.type)).toEqual([
      "user.entered_region_country",
      "user.entered_region_state",
      "user.entered_region_postal_code",
    ]);
  });

  it("accepts a form body", async () => {
    const deviceId = unique("form");
    const res = await api("POST", "/v1/track", {
      key: keys.publishable,
      form: {
        deviceId,
        latitude: "10.5",
        longitude: "20.5",
        accuracy: "12",
        foreground: "true",
        metadata: '{"a":1}',
      },
    });
    expect(res.body.user).toMatchObject({
      deviceId,
      foreground: true,
      metadata: { a: 1 },
      locationAccuracy: 12,
    });
  });
});
