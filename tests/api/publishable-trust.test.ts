import { describe, expect, it } from "vitest";
import { startFreshServer } from "../../scripts/fresh-server";
import { FRESH_ACCOUNTS, FRESH_PASSWORD } from "../../scripts/fresh-server";
import { api, keys, unique } from "../support/api";

/**
 * A publishable key is public (docs/security.md): whoever holds it may write as any device, but
 * an answer carries stored state only when the request names the device of the user's last
 * accepted update (its deviceId or installId), or sent that state itself. Each test plants a
 * victim with a profile, a geofence membership and a trip, and probes as an attacker holding the
 * publishable key and the victim's guessable userId.
 */

type Wire = Record<string, unknown>;
const pk = keys.publishable;

/** A spot of this file's own, far from other tests' geofences. */
const base = { lat: -41.2 + Math.random() * 0.5, lng: 174.7 + Math.random() * 0.5 };

async function victim() {
  const tag = unique("trust");
  const fence = await api("POST", "/v1/geofences", {
    json: {
      description: "Clinic",
      tag,
      externalId: "clinic",
      type: "circle",
      coordinates: [base.lng, base.lat],
      radius: 100,
      metadata: { ward: "oncology" },
      userIds: ["someone-else", "victim-too"],
    },
  });
  expect(fence.status).toBe(200);
  const userId = unique("victim");
  const deviceId = unique("victim-device");
  const installId = unique("victim-install");
  // The geofence names the victim, so the victim makes events in it.
  await api("PATCH", `/v1/geofences/${(fence.body.geofence as Wire)._id}`, {
    json: { userIds: ["someone-else", userId] },
  });
  const at = new Date(Date.now() - 60_000);
  const tracked = await api("POST", "/v1/track", {
    key: pk,
    json: {
      deviceId,
      userId,
      installId,
      latitude: base.lat,
      longitude: base.lng,
      accuracy: 5,
      description: "Jane's phone",
      metadata: { plan: "premium" },
      updatedAt: at.toISOString(),
    },
  });
  expect(tracked.status).toBe(200);
  expect((tracked.body.events as Wire[]).map((e) => e.type)).toContain("user.entered_geofence");
  const externalId = unique("ride");
  const trip = await api("POST", "/v1/trips", {
    json: { externalId, userId, destinationGeofenceTag: tag, destinationGeofenceExternalId: "clinic" },
  });
  expect(trip.status).toBe(200);
  return { tag, userId, deviceId, installId, at, externalId, tripId: (trip.body.trip as Wire)._id as string };
}

const track = (json: Wire) => api("POST", "/v1/track", { key: pk, json });

/** Fails when anything of the victim's stored state is in `body`. */
function expectNothingOf(body: unknown, v: { userId: string; deviceId: string }) {
  const text = JSON.stringify(body);
  for (const secret of [
    "Jane's phone",
    "premium",
    "oncology",
    "someone-else",
    v.deviceId,
    "userIds",
    "Clinic",
  ])
    expect(text, `answer holds "${secret}"`).not.toContain(secret);
  expect(text).not.toContain(`${base.lat}`);
}

describe("a publishable key learns nothing it did not send", () => {
  it("an older update naming another device's user answers the fix it sent, and changes nothing", async () => {
    const v = await victim();
    const old = new Date(v.at.getTime() - 3_600_000).toISOString();
    const res = await track({
      userId: v.userId,
      deviceId: "attacker",
      latitude: 10,
      longitude: 10,
      accuracy: 7,
      updatedAt: old,
    });
    expect(res.status).toBe(200);
    expectNothingOf(res.body, v);
    expect(res.body.events).toEqual([]);
    const user = res.body.user as Wire;
    expect(user).toMatchObject({
      userId: v.userId,
      deviceId: "attacker",
      location: { coordinates: [10, 10] },
      locationAccuracy: 7,
      geofences: [],
      updatedAt: old,
    });
    expect(user.trip).toBeUndefined();
    // Nothing was written: the victim is where it was.
    const stored = await api("GET", `/v1/users/${v.userId}`);
    expect(stored.body.user).toMatchObject({
      deviceId: v.deviceId,
      location: { coordinates: [base.lng, base.lat] },
    });
  });

  it("a newer update of another device's user is applied, but answers nothing of the user", async () => {
    const v = await victim();
    const res = await track({
      userId: v.userId,
      deviceId: "attacker-2",
      latitude: 11,
      longitude: 11,
      accuracy: 9,
    });
    expect(res.status).toBe(200);
    expectNothingOf(res.body, v);
    // Its exit from the clinic and the trip's events were made, and are not told.
    expect(res.body.events).toEqual([]);
    expect((res.body.user as Wire).trip).toBeUndefined();
    const stored = (await api("GET", `/v1/users/${v.userId}`)).body.user as Wire;
    const events = await api("GET", `/v1/events?userId=${stored._id as string}&types=user.exited_geofence`);
    expect((events.body.events as Wire[]).length).toBe(1);
  });

  it("an offline replay naming another device's user answers what it sent", async () => {
    const v = await victim();
    const res = await api("POST", "/v1/track/replay", {
      key: pk,
      json: {
        replays: [
          {
            userId: v.userId,
            deviceId: "attacker-3",
            latitude: 12,
            longitude: 12,
            accuracy: 5,
            updatedAtMsDiff: 7_200_000,
          },
          {
            userId: v.userId,
            deviceId: "attacker-3",
            latitude: 13,
            longitude: 13,
            accuracy: 5,
            updatedAtMsDiff: 3_600_000,
          },
        ],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.events).toEqual([]);
    expect(res.body.user).toMatchObject({ deviceId: "attacker-3", location: { coordinates: [13, 13] } });
    expectNothingOf(res.body, v);
  });

  it("the device's own updates, by deviceId or by installId, see the user as stored", async () => {
    const v = await victim();
    const own = await track({
      userId: v.userId,
      deviceId: v.deviceId,
      latitude: base.lat,
      longitude: base.lng,
      accuracy: 5,
    });
    expect(own.body.user).toMatchObject({ description: "Jane's phone", metadata: { plan: "premium" } });
    expect(((own.body.user as Wire).geofences as Wire[]).map((g) => g.description)).toEqual(["Clinic"]);
    expect((own.body.user as Wire).trip).toMatchObject({ externalId: v.externalId });
    // A reinstalled app keeps its installId and gets a new deviceId.
    const reinstalled = await track({
      userId: v.userId,
      deviceId: unique("new-device"),
      installId: v.installId,
      latitude: base.lat,
      longitude: base.lng,
      accuracy: 5,
    });
    expect(reinstalled.body.user).toMatchObject({ metadata: { plan: "premium" } });
    // Geofences are embedded without whom they are for, even to their own users.
    expect(JSON.stringify(own.body)).not.toContain("userIds");
  });

  it("a conversion for another device's user answers its own event, without the user's location or profile", async () => {
    const v = await victim();
    const res = await api("POST", "/v1/events", {
      key: pk,
      json: { type: "purchase", userId: v.userId, metadata: { revenue: 1 } },
    });
    expect(res.status).toBe(200);
    const event = res.body.event as Wire;
    expect(event).toMatchObject({ type: "purchase", metadata: { revenue: 1 }, user: { userId: v.userId } });
    expect(event.location).toBeUndefined();
    expectNothingOf(res.body, v);
    // Its own device is answered in full.
    const own = await api("POST", "/v1/events", {
      key: pk,
      json: { type: "purchase", userId: v.userId, deviceId: v.deviceId },
    });
    expect(own.body.event).toMatchObject({ location: { coordinates: [base.lng, base.lat] } });
  });

  it("reaches a trip by _id, or by externalId with the trip's own userId; otherwise it does not exist", async () => {
    const v = await victim();
    const missing = (res: { status: number; body: { meta: { message?: string } } }) => {
      expect(res.status).toBe(404);
      expect(res.body.meta.message).toBe(
        `no trip with _id or externalId ${v.externalId} in this environment`,
      );
    };
    missing(await api("PATCH", `/v1/trips/${v.externalId}/update`, { key: pk, json: {} }));
    missing(await api("PATCH", `/v1/trips/${v.externalId}`, { key: pk, json: { status: "canceled" } }));
    missing(await api("PATCH", `/v1/trips/${v.externalId}/update`, { key: pk, json: { userId: "someone" } }));
    expect(
      (await api("PUT", `/v1/trips/${v.externalId}/legs`, { key: pk, json: { legs: ["x"] } })).status,
    ).toBe(404);
    expect(
      (await api("PATCH", `/v1/trips/${v.externalId}/legs/x`, { key: pk, json: { status: "arrived" } }))
        .status,
    ).toBe(404);
    // Untouched: still started.
    expect((await api("GET", `/v1/trips/${v.tripId}`)).body.trip).toMatchObject({ status: "started" });

    // With the trip's userId (as the mobile SDKs send it): the trip, nothing of the user's last fix.
    const sdk = await api("PATCH", `/v1/trips/${v.externalId}/update`, {
      key: pk,
      json: { userId: v.userId, status: "canceled" },
    });
    expect(sdk.status).toBe(200);
    expect(sdk.body.trip).toMatchObject({ externalId: v.externalId, status: "canceled" });
    expect((sdk.body.trip as Wire).eta).toBeUndefined();
    const stopped = (sdk.body.events as Wire[])[0]!;
    expect(stopped.type).toBe("user.stopped_trip");
    expect(stopped.location).toBeUndefined();
    expectNothingOf(sdk.body, v);
    // By _id, which only whoever was answered it knows.
    const byId = await api("PATCH", `/v1/trips/${v.tripId}/update`, { key: pk, json: {} });
    expect(byId.status).toBe(200);
  });

  it("starting a trip for another device's user neither ends nor reveals the user's trip", async () => {
    const v = await victim();
    const res = await api("POST", "/v1/trips", {
      key: pk,
      json: {
        externalId: unique("mine"),
        userId: v.userId,
        destinationGeofenceTag: v.tag,
        destinationGeofenceExternalId: "clinic",
      },
    });
    expect(res.status).toBe(200);
    const types = (res.body.events as Wire[]).map((e) => e.type);
    expect(types).toEqual(["user.started_trip"]);
    expect((res.body.trip as Wire).eta).toBeUndefined();
    expectNothingOf({ ...res.body, trip: { ...(res.body.trip as Wire), destinationLocation: null } }, v);
    expect((await api("GET", `/v1/trips/${v.tripId}`)).body.trip).toMatchObject({ status: "started" });
    // A clash of externalIds says so, without the other trip's status.
    const clash = await api("POST", "/v1/trips", {
      key: pk,
      json: { externalId: v.externalId, userId: "other" },
    });
    expect(clash.status).toBe(409);
    expect(clash.body.meta.message).not.toMatch(/started/);
    // Named by the user's own device, it replaces the trip the user was on.
    const own = await api("POST", "/v1/trips", {
      key: pk,
      json: { externalId: unique("own"), userId: v.userId, deviceId: v.deviceId },
    });
    expect((own.body.events as Wire[]).map((e) => e.type)).toContain("user.stopped_trip");
  });

  it("config and logs naming another device's ids answer nothing of it", async () => {
    const v = await victim();
    const config = await api(
      "GET",
      `/v1/config?installId=${v.installId}&deviceId=${v.deviceId}&userId=${v.userId}`,
      {
        key: pk,
      },
    );
    expect(config.status).toBe(200);
    expectNothingOf(config.body, v);
    const logs = await api("POST", "/v1/logs", {
      key: pk,
      json: { deviceId: v.deviceId, logs: [{ level: "info", message: "hello" }] },
    });
    expect(logs.status).toBe(200);
    expect(Object.keys(logs.body)).toEqual(["meta"]);
  });

  it("geofences answered to a publishable key never say whom they are for", async () => {
    const v = await victim();
    const near = { latitude: base.lat, longitude: base.lng };
    const sync = await api("POST", "/v1/sync/region", { key: pk, json: { ...near, userId: v.userId } });
    expect(sync.status).toBe(200);
    expect((sync.body.geofences as Wire[]).some((g) => g.tag === v.tag)).toBe(true);
    expect(JSON.stringify(sync.body)).not.toContain("userIds");
    const tracked = await track({
      deviceId: v.deviceId,
      userId: v.userId,
      ...near,
      accuracy: 5,
      nearbyGeofences: true,
    });
    expect((tracked.body.nearbyGeofences as Wire[]).some((g) => g.tag === v.tag)).toBe(true);
    expect(JSON.stringify(tracked.body)).not.toContain("userIds");
    const context = await api("GET", `/v1/context?coordinates=${base.lat},${base.lng}`, { key: pk });
    expect(JSON.stringify(context.body)).not.toContain("userIds");
    // A secret key still reads them.
    const secret = await api("POST", "/v1/sync/region", { json: { ...near, userId: v.userId } });
    expect(JSON.stringify(secret.body)).toContain("userIds");
  });

  it("geofence sync follows its setting: off, sync/region is refused and nearbyGeofences left out", async () => {
    // A server of its own: the setting is service-wide.
    const server = await startFreshServer();
    try {
      const call = async (method: string, path: string, json: unknown, headers: Record<string, string>) => {
        const res = await fetch(`${server.url}${path}`, {
          method,
          headers: { "content-type": "application/json", ...headers },
          body: JSON.stringify(json),
        });
        return { status: res.status, body: (await res.json()) as Wire };
      };
      const asKey = { authorization: server.keys.publishable };
      const at = { latitude: 1, longitude: 1 };
      expect((await call("POST", "/v1/sync/region", at, asKey)).status).toBe(200);
      const login = await fetch(`${server.url}/api/session`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: server.url },
        body: JSON.stringify({ email: FRESH_ACCOUNTS.admin, password: FRESH_PASSWORD }),
      });
      const cookie = login.headers.get("set-cookie")!.split(";")[0]!;
      const off = await call(
        "PATCH",
        "/api/settings",
        { publishableGeofenceSync: false },
        { cookie, origin: server.url },
      );
      expect(off.body.settings).toMatchObject({ publishableGeofenceSync: false });
      const refused = await call("POST", "/v1/sync/region", at, asKey);
      expect(refused.status).toBe(403);
      expect((refused.body.meta as Wire).message).toMatch(/geofence sync/);
      const tracked = await call(
        "POST",
        "/v1/track",
        { ...at, deviceId: "d", accuracy: 5, nearbyGeofences: true },
        asKey,
      );
      expect(tracked.status).toBe(200);
      expect(tracked.body.nearbyGeofences).toBeUndefined();
      expect((await call("POST", "/v1/sync/region", at, { authorization: server.keys.secret })).status).toBe(
        200,
      );
      // Geofence search, once an admin lets publishable keys search: without userIds.
      const made = await call(
        "POST",
        "/v1/geofences",
        { description: "for some", type: "circle", coordinates: [1, 1], radius: 100, userIds: ["someone"] },
        { authorization: server.keys.secret },
      );
      expect(made.status).toBe(200);
      await call("PATCH", "/api/settings", { publishableSearch: true }, { cookie, origin: server.url });
      const search = await fetch(`${server.url}/v1/search/geofences?near=1,1&radius=500`, { headers: asKey });
      const found = (await search.json()) as { geofences: Wire[] };
      expect(found.geofences.map((g) => g.description)).toEqual(["for some"]);
      expect(JSON.stringify(found)).not.toContain("someone");
    } finally {
      await server.stop();
    }
  }, 60_000);
});
