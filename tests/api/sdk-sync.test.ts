import { describe, expect, it } from "vitest";
import { api, expectError, keys, unique } from "../support/api";
import { metersFrom } from "../support/geo";

/**
 * What Radar's mobile SDKs send and ask of a track beyond the update itself: what the device says
 * of itself, kept on the user, and the nearest geofences, which they register with the OS
 *. Bodies are what radar-sdk-android's RadarApiClient.track
 * builds (its key names and value types), with the geofence sync on.
 */

type Geofence = Record<string, unknown> & {
  _id: string;
  type: string;
  externalId: string;
  geometryCenter: { type: string; coordinates: number[] };
  geometryRadius: number;
  geometry?: { type: string; coordinates: number[][][] };
};

const base = { lat: -41.3 + Math.random() * 0.05, lng: 174.7 + Math.random() * 0.05 };
const { north, east } = metersFrom(base);

/** The body radar-sdk-android sends from a background location, geofence sync on. */
function androidBody(deviceId: string, extra: Record<string, unknown> = {}) {
  return {
    installId: `install-${deviceId}`,
    deviceId,
    description: "Pixel of the courier",
    metadata: { shift: "early" },
    latitude: base.lat,
    longitude: base.lng,
    accuracy: 12.5,
    speed: 0.0,
    course: 0.0,
    verticalAccuracy: 3.2,
    speedAccuracy: 0.5,
    courseAccuracy: 10.0,
    updatedAtMsDiff: 1204,
    foreground: false,
    stopped: true,
    replayed: false,
    deviceType: "Android",
    deviceMake: "Google",
    sdkVersion: "3.21.3",
    deviceModel: "Pixel 8",
    deviceOS: "14",
    country: "NZ",
    timeZoneOffset: 46800,
    source: "BACKGROUND_LOCATION",
    mocked: false,
    nearbyGeofences: true,
    nearbyGeofencesLimit: 0,
    locationAuthorization: "GRANTED_BACKGROUND",
    locationAccuracyAuthorization: "FULL",
    sessionId: "1764000000",
    trackingOptions: { desiredStoppedUpdateInterval: 3600, syncGeofences: true, syncGeofencesLimit: 0 },
    ...extra,
  };
}

const track = (body: Record<string, unknown>) =>
  api("POST", "/v1/track", { json: body, key: keys.publishable });

describe("nearby geofences in the track answer", () => {
  const tag = unique("sync");
  const made: Record<string, string> = {};
  const make = async (externalId: string, shape: Record<string, unknown>) => {
    const res = await api("POST", "/v1/geofences", {
      json: { description: `zone ${externalId}`, tag, externalId, ...shape },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    made[externalId] = (res.body.geofence as Geofence)._id;
  };

  it("answers the nearest enabled geofences, nearest first, in the shape the SDKs register", async () => {
    // Twelve circles 300 m to 3.6 km north, a square around the device, a disabled circle beside
    // it and one 20 km away.
    for (let i = 1; i <= 12; i++) {
      await make(`c${i}`, { type: "circle", coordinates: [base.lng, north(300 * i)], radius: 50 });
    }
    await make("square", {
      type: "polygon",
      coordinates: [
        [east(-100), north(-100)],
        [east(100), north(-100)],
        [east(100), north(100)],
        [east(-100), north(100)],
      ],
    });
    await make("off", { type: "circle", coordinates: [east(20), base.lat], radius: 100, enabled: false });
    await make("far", { type: "circle", coordinates: [base.lng, north(20_000)], radius: 100 });

    const res = await track(androidBody(unique("android")));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // The update itself as always: its user, its events (the square was entered).
    expect(res.body.user).toMatchObject({ deviceType: "Android" });
    expect((res.body.events as { type: string }[]).map((e) => e.type)).toContain("user.entered_geofence");

    const nearby = res.body.nearbyGeofences as Geofence[];
    // nearbyGeofencesLimit 0 (Android's continuous preset) is the default: 10.
    expect(nearby.map((g) => g.externalId)).toEqual([
      "square",
      ...Array.from({ length: 9 }, (_, i) => `c${i + 1}`),
    ]);
    for (const g of nearby) {
      // What RadarGeofence.fromJson reads: an _id (iOS needs it), the center as exactly two
      // numbers [lng, lat], the radius, and a polygon's one ring.
      expect(g._id).toMatch(/^[0-9a-f]{24}$/);
      expect(g.geometryCenter.type).toBe("Point");
      expect(g.geometryCenter.coordinates).toHaveLength(2);
      expect(g.geometryCenter.coordinates.every(Number.isFinite)).toBe(true);
      expect(g.geometryRadius).toBeGreaterThan(0);
      expect(g.geometry?.coordinates).toHaveLength(1);
    }
    expect(nearby[0]!.type).toBe("polygon");
    expect(nearby[0]!.geometry!.coordinates[0]!.length).toBeGreaterThanOrEqual(4);
    expect(nearby[1]).toMatchObject({ _id: made.c1, type: "circle", geometryRadius: 50 });
    expect(nearby[1]!.geometryCenter.coordinates[0]).toBeCloseTo(base.lng, 6);
    expect(nearby[1]!.geometryCenter.coordinates[1]).toBeCloseTo(north(300), 6);
  });

  it("takes the SDK's limit, answers none unless asked, and refuses a limit out of range", async () => {
    const three = await track(androidBody(unique("android"), { nearbyGeofencesLimit: 3 }));
    expect((three.body.nearbyGeofences as Geofence[]).map((g) => g.externalId)).toEqual([
      "square",
      "c1",
      "c2",
    ]);

    // iOS sends the flag without a limit, and a form body carries it as text.
    const form = await api("POST", "/v1/track", {
      key: keys.publishable,
      form: {
        deviceId: unique("ios"),
        latitude: String(base.lat),
        longitude: String(base.lng),
        accuracy: "10",
        nearbyGeofences: "true",
      },
    });
    expect(form.status, JSON.stringify(form.body)).toBe(200);
    expect(form.body.nearbyGeofences as Geofence[]).toHaveLength(10);

    const plain = await track(androidBody(unique("android"), { nearbyGeofences: false }));
    expect(plain.status).toBe(200);
    expect(plain.body).not.toHaveProperty("nearbyGeofences");

    expectError(
      await track(androidBody(unique("android"), { nearbyGeofencesLimit: 101 })),
      400,
      "nearbyGeofencesLimit",
    );
    expectError(
      await track(androidBody(unique("android"), { nearbyGeofencesLimit: -1 })),
      400,
      "nearbyGeofencesLimit",
    );
    expectError(
      await track(androidBody(unique("android"), { nearbyGeofences: "soon" })),
      400,
      "nearbyGeofences",
    );
  });

  it("answers the SDKs' sync region: the geofences and places around the device and the circle they cover", async () => {
    // What radar-sdk-ios's fetchSyncRegion sends.
    const res = await api("POST", "/v1/sync/region", {
      key: keys.publishable,
      json: { latitude: base.lat, longitude: base.lng, userId: "courier-7" },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const ids = (res.body.geofences as Geofence[]).filter((g) => g.tag === tag).map((g) => g.externalId);
    // Everything enabled within 5 km, nearest first: not the disabled one, not the one 20 km away.
    expect(ids).toEqual(["square", ...Array.from({ length: 12 }, (_, i) => `c${i + 1}`)]);
    expect(res.body.places).toEqual([]);
    expect(res.body.beacons).toEqual([]);
    // What the SDKs read: region.latitude, .longitude and .radius as numbers, radius > 0.
    expect(res.body.region).toEqual({ latitude: base.lat, longitude: base.lng, radius: 5000 });
    expectError(
      await api("POST", "/v1/sync/region", { key: keys.publishable, json: { longitude: base.lng } }),
      400,
      "latitude",
    );
  });

  it("shrinks the region to the 500th geofence when more than 500 are around, so it holds all within it", async () => {
    const here = { lat: -52 + Math.random(), lng: -100 + Math.random() };
    const m = metersFrom(here);
    const crowd = unique("crowd");
    // 520 circles of 20 m, 100 m to about 4.3 km due north, 8 m apart.
    const north = (i: number) => 100 + i * 8;
    for (let i = 0; i < 520; i += 40) {
      await Promise.all(
        Array.from({ length: 40 }, (_, k) =>
          api("PUT", `/v1/geofences/${crowd}/g${i + k}`, {
            json: {
              description: `g${i + k}`,
              type: "circle",
              coordinates: [here.lng, m.north(north(i + k))],
              radius: 20,
            },
          }).then((r) => expect(r.status).toBe(200)),
        ),
      );
    }
    const res = await api("POST", "/v1/sync/region", {
      key: keys.publishable,
      json: { latitude: here.lat, longitude: here.lng },
    });
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    const ids = (res.body.geofences as Geofence[]).map((g) => g.externalId);
    expect(ids).toEqual(Array.from({ length: 500 }, (_, i) => `g${i}`));
    // The circle reaches the last one sent (its edge, 20 m short of its centre) and no further.
    const radius = (res.body.region as { radius: number }).radius;
    expect(radius).toBeGreaterThan(north(499) - 21);
    expect(radius).toBeLessThan(north(500) - 20);
  }, 60_000);

  it("answers the SDKs' beacon search with no beacons (none are kept), and checks its parameters", async () => {
    const res = await api("GET", `/v1/search/beacons?near=${base.lat},${base.lng}&radius=1000&limit=100`, {
      key: keys.publishable,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.beacons).toEqual([]);
    expectError(await api("GET", "/v1/search/beacons?radius=1000", { key: keys.publishable }), 400, "near");
    expectError(
      await api("GET", `/v1/search/beacons?near=${base.lat},${base.lng}&limit=500`, {
        key: keys.publishable,
      }),
      400,
      "limit",
    );
  });

  it("leaves disabled geofences out of searches too", async () => {
    const res = await api("GET", `/v1/search/geofences?near=${base.lat},${base.lng}&radius=500&tags=${tag}`);
    expect(res.status).toBe(200);
    const ids = (res.body.geofences as Geofence[]).map((g) => g.externalId);
    expect(ids).toEqual(["square", "c1"]);
    expect(ids).not.toContain("off");
  });
});

describe("nearby geofences that name users", () => {
  it("counts only those active for the device's user: seventy naming someone else take no place", async () => {
    const here = { lat: -40.9 + Math.random() * 0.05, lng: 175.6 + Math.random() * 0.05 };
    const { north: n, east: e } = metersFrom(here);
    const tag = unique("named");
    const me = unique("courier");
    const ids: Record<string, string> = {};
    const make = async (externalId: string, shape: Record<string, unknown>) => {
      const res = await api("POST", "/v1/geofences", {
        json: { description: externalId, tag, externalId, type: "circle", radius: 30, ...shape },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      ids[externalId] = (res.body.geofence as Geofence)._id;
    };
    // Seventy within 150 m name another user; farther out, one names this user and two name none.
    for (let i = 0; i < 70; i++) {
      await make(`other${i}`, {
        coordinates: [e(150 * Math.cos(i)), n(150 * Math.sin(i))],
        userIds: ["someone-else"],
      });
    }
    await make("mine", { coordinates: [e(400), here.lat], userIds: [me] });
    await make("open1", { coordinates: [e(-500), here.lat] });
    await make("open2", { coordinates: [here.lng, n(600)] });

    const res = await track({
      ...androidBody(unique("android"), { nearbyGeofencesLimit: 3 }),
      latitude: here.lat,
      longitude: here.lng,
      userId: me,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const nearby = res.body.nearbyGeofences as Geofence[];
    expect(nearby.map((g) => g._id)).toEqual([ids.mine, ids.open1, ids.open2]);
    // A publishable key is not told whom a geofence names.
    expect(nearby[0]).not.toHaveProperty("userIds");
  });
});

describe("what the device says of itself", () => {
  it("keeps the SDK's device fields on the user, and each fix's speed, course and altitude with that fix", async () => {
    const deviceId = unique("android");
    const first = await track(androidBody(deviceId, { nearbyGeofences: false, altitude: 31.5 }));
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const device = {
      deviceType: "Android",
      deviceOS: "14",
      deviceMake: "Google",
      deviceModel: "Pixel 8",
      sdkVersion: "3.21.3",
      installId: `install-${deviceId}`,
      locationAuthorization: "GRANTED_BACKGROUND",
      locationAccuracyAuthorization: "FULL",
      foreground: false,
      stopped: true,
    };
    expect(first.body.user).toMatchObject({
      ...device,
      speed: 0,
      course: 0,
      altitude: 31.5,
      replayed: false,
    });
    const id = (first.body.user as { _id: string })._id;
    expect((await api("GET", `/v1/users/${id}`)).body.user).toMatchObject({ ...device, altitude: 31.5 });

    // A later update that says nothing of the device keeps it; its fix has no speed of its own.
    const later = await track({ deviceId, latitude: base.lat, longitude: base.lng, accuracy: 20 });
    expect(later.body.user).toMatchObject(device);
    for (const f of ["speed", "course", "altitude", "replayed"])
      expect(later.body.user).not.toHaveProperty(f);
    // An upgraded app says so.
    const upgraded = await track({
      deviceId,
      latitude: base.lat,
      longitude: base.lng,
      accuracy: 20,
      sdkVersion: "3.22.0",
      speed: -1,
    });
    expect(upgraded.body.user).toMatchObject({ ...device, sdkVersion: "3.22.0", speed: -1 });
  });

  it("refuses device fields out of range, naming them", async () => {
    expectError(await track(androidBody(unique("android"), { speed: -2 })), 400, "speed");
    expectError(await track(androidBody(unique("android"), { course: 361 })), 400, "course");
    expectError(await track(androidBody(unique("android"), { altitude: "high" })), 400, "altitude");
    expectError(
      await track(androidBody(unique("android"), { deviceModel: "x".repeat(65) })),
      400,
      "deviceModel",
    );
    expectError(await track(androidBody(unique("android"), { replayed: "maybe" })), 400, "replayed");
  });
});
