import { describe, expect, inject, it } from "vitest";
import { FRESH_ACCOUNTS, FRESH_PASSWORD } from "../../scripts/fresh-server";
import { api, expectError, keys, signIn, unique } from "../support/api";

/**
 * Beacons (docs/beacons.md), as Radar's API and SDKs know them: managed like geofences, searched
 * by the SDKs before they range, and ranged beacons sent with a location update make
 * user.entered_beacon and user.exited_beacon, with the beacon on the event and on the user.
 */

type Wire = Record<string, unknown>;
type Beacon = Wire & { _id: string; uuid: string; major: string; minor: string };

/** An hour ago: the updates of a test are minutes after it, as the device recorded them. */
const START = Date.now() - 60 * 60_000;
const round = (v: number) => Math.round(v * 1e6) / 1e6;
const at = { lat: round(46.5 + Math.random() * 0.3), lng: round(6.6 + Math.random() * 0.3) };
const uuid = () => {
  const h = unique("u").slice(2).padEnd(12, "0").slice(-12);
  return `F7826DA6-4FA2-4E98-8024-${h.replace(/[^0-9a-f]/g, "a").toUpperCase()}`;
};

async function makeBeacon(fields: Wire = {}): Promise<Beacon> {
  const res = await api("POST", "/v1/beacons", {
    json: {
      description: unique("door"),
      tag: "doors",
      externalId: unique("door"),
      uuid: uuid(),
      major: 100,
      minor: "7",
      coordinates: [at.lng, at.lat],
      metadata: { floor: 2 },
      ...fields,
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.beacon as Beacon;
}

async function track(deviceId: string, ranged: Wire[] | undefined, minutes = 0) {
  const res = await api("POST", "/v1/track", {
    key: keys.publishable,
    json: {
      deviceId,
      userId: deviceId,
      latitude: at.lat,
      longitude: at.lng,
      accuracy: 10,
      foreground: true,
      stopped: true,
      updatedAt: new Date(START + minutes * 60_000).toISOString(),
      ...(ranged !== undefined && { beacons: ranged }),
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const answer = res.body as unknown as {
    user: Wire & { beacons?: Beacon[] };
    events: (Wire & { type: string; beacon?: Beacon })[];
  };
  // The beacons' events (a new user also enters its country and state).
  return { ...answer, events: answer.events.filter((e) => e.type.endsWith("_beacon")) };
}

describe("the beacons API", () => {
  it("makes, reads, changes, replaces by tag and externalId, lists by tag and deletes beacons", async () => {
    const b = await makeBeacon();
    expect(b).toMatchObject({
      type: "ibeacon",
      major: "100",
      minor: "7",
      tag: "doors",
      metadata: { floor: 2 },
      geometry: { type: "Point", coordinates: [at.lng, at.lat] },
      enabled: true,
    });
    // The UUID is kept lowercase, as iOS ranges it.
    expect(b.uuid).toBe(b.uuid.toLowerCase());
    expect((await api("GET", `/v1/beacons/${b._id}`)).body.beacon).toMatchObject({ _id: b._id });
    const byRef = await api("GET", `/v1/beacons/doors/${b.externalId as string}`);
    expect(byRef.body.beacon).toMatchObject({ _id: b._id });

    const changed = await api("PUT", `/v1/beacons/${b._id}`, {
      json: { description: "Front door", enabled: false },
    });
    expect(changed.body.beacon).toMatchObject({
      _id: b._id,
      description: "Front door",
      enabled: false,
      major: "100",
    });

    // null clears an optional field (what the dashboard's form sends for an empty one).
    const cleared = await api("PUT", `/v1/beacons/${b._id}`, { json: { metadata: null } });
    expect(cleared.body.beacon).not.toHaveProperty("metadata");

    const replaced = await api("PUT", `/v1/beacons/doors/${b.externalId as string}`, {
      json: { description: "Back door", uuid: b.uuid, major: 1, minor: 2, coordinates: [at.lng, at.lat] },
    });
    expect(replaced.body.beacon).toMatchObject({
      _id: b._id,
      description: "Back door",
      major: "1",
      minor: "2",
    });

    const tag = unique("tag");
    const mine = [await makeBeacon({ tag }), await makeBeacon({ tag })];
    const listed = await api("GET", `/v1/beacons?tag=${tag}&limit=1`);
    expect(listed.body.meta).toMatchObject({ hasMore: true });
    expect((listed.body.beacons as Beacon[]).map((x) => x._id)).toEqual([mine[1]!._id]);

    expect((await api("DELETE", `/v1/beacons/${b._id}`)).status).toBe(200);
    expectError(await api("GET", `/v1/beacons/${b._id}`), 404);
    expectError(await api("DELETE", `/v1/beacons/doors/${b.externalId as string}`), 404);
  });

  it("refuses bad input with the parameter named, and a taken tag and externalId with a 409", async () => {
    const base = { description: "x", uuid: uuid(), major: 1, minor: 1, coordinates: [at.lng, at.lat] };
    expectError(await api("POST", "/v1/beacons", { json: { ...base, uuid: "not-a-uuid" } }), 400, "uuid");
    expectError(await api("POST", "/v1/beacons", { json: { ...base, major: 70000 } }), 400, "major");
    expectError(await api("POST", "/v1/beacons", { json: { ...base, minor: "-1" } }), 400, "minor");
    expectError(
      await api("POST", "/v1/beacons", { json: { ...base, coordinates: [200, 10] } }),
      400,
      "coordinates",
    );
    expectError(await api("POST", "/v1/beacons", { json: { ...base, description: "" } }), 400, "description");
    const b = await makeBeacon();
    const taken = await api("POST", "/v1/beacons", {
      json: { ...base, tag: "doors", externalId: b.externalId },
    });
    expectError(taken, 409, "externalId");
    // A publishable key ships in every app: it may not manage beacons.
    expectError(await api("GET", "/v1/beacons", { key: keys.publishable }), 403);
  });

  it("answers the SDKs' beacon search with the beacons near, nearest first, and the UUIDs to range", async () => {
    const near = await makeBeacon();
    const farther = await makeBeacon({ coordinates: [at.lng + 0.005, at.lat] });
    await makeBeacon({ coordinates: [at.lng + 0.5, at.lat] });
    const res = await api("GET", `/v1/search/beacons?near=${at.lat},${at.lng}&radius=1000&limit=10`, {
      key: keys.publishable,
    });
    expect(res.status).toBe(200);
    const ids = (res.body.beacons as Beacon[]).map((b) => b._id);
    expect(ids.indexOf(near._id)).toBeGreaterThanOrEqual(0);
    expect(ids.indexOf(near._id)).toBeLessThan(ids.indexOf(farther._id));
    const meta = res.body.meta as unknown as { settings: { beacons: { uuids: string[] } } };
    expect(meta.settings.beacons.uuids).toEqual(expect.arrayContaining([near.uuid, farther.uuid]));
  });
});

describe("tracking with beacons", () => {
  it("enters the beacons a device ranges and exits those it no longer ranges, with the beacon on the event and the user", async () => {
    const door = await makeBeacon();
    const desk = await makeBeacon();
    const device = unique("ranger");
    // iOS sends what it ranged with rssi and type, the UUID in upper case; Android _id, uuid, major and minor.
    const first = await track(device, [
      { uuid: door.uuid.toUpperCase(), major: door.major, minor: door.minor, rssi: -60, type: "ibeacon" },
    ]);
    expect(first.events.map((e) => [e.type, e.beacon?._id])).toEqual([["user.entered_beacon", door._id]]);
    expect(first.user.beacons?.map((b) => b._id)).toEqual([door._id]);

    // An update that says nothing of beacons changes nothing of them.
    const quiet = await track(device, undefined, 1);
    expect(quiet.events).toEqual([]);
    expect(quiet.user.beacons?.map((b) => b._id)).toEqual([door._id]);

    const moved = await track(
      device,
      [{ _id: desk._id, uuid: desk.uuid, major: desk.major, minor: desk.minor }],
      5,
    );
    expect(moved.events.map((e) => [e.type, e.beacon?._id, e.duration])).toEqual([
      ["user.exited_beacon", door._id, 5],
      ["user.entered_beacon", desk._id, undefined],
    ]);
    expect(moved.user.beacons?.map((b) => b._id)).toEqual([desk._id]);

    // The user as the users API shows it, and the events as listed.
    const user = await api("GET", `/v1/users/${device}`);
    expect((user.body.user as { beacons: Beacon[] }).beacons.map((b) => b._id)).toEqual([desk._id]);
    const events = await api(
      "GET",
      `/v1/events?userId=${first.user._id as string}&types=user.entered_beacon,user.exited_beacon`,
    );
    expect(
      (events.body.events as (Wire & { beacon?: Beacon })[]).map((e) => [e.type, e.beacon?._id]),
    ).toEqual([
      ["user.entered_beacon", desk._id],
      ["user.exited_beacon", door._id],
      ["user.entered_beacon", door._id],
    ]);

    // A beacon deleted takes the user out of it; nothing ranged exits the rest.
    expect((await api("DELETE", `/v1/beacons/${desk._id}`)).status).toBe(200);
    const after = await track(device, [], 6);
    expect(after.events).toEqual([]);
    expect(after.user.beacons).toEqual([]);
  });

  it("refuses a ranged beacon without its identifiers, and writes nothing of the update", async () => {
    const device = unique("ranger");
    const res = await api("POST", "/v1/track", {
      key: keys.publishable,
      json: { deviceId: device, latitude: at.lat, longitude: at.lng, accuracy: 10, beacons: [{ uuid: "x" }] },
    });
    expectError(res, 400, "beacons");
    expectError(await api("GET", `/v1/users/${device}`), 404);
  });
});

describe("beacons in and out as files", () => {
  const baseUrl = inject("baseUrl");

  it("exports a tag's beacons and imports them back; a bad row refuses the whole file, naming it", async () => {
    const cookie = await signIn(FRESH_ACCOUNTS.admin, FRESH_PASSWORD);
    const tag = unique("shelf");
    const made = [await makeBeacon({ tag }), await makeBeacon({ tag, metadata: { note: "=HYPERLINK()" } })];
    for (const format of ["geojson", "csv"] as const) {
      const file = await (
        await fetch(`${baseUrl}/api/beacons/export?format=${format}&tag=${tag}`, { headers: { cookie } })
      ).text();
      // Deleted, then imported from the file: the same beacons again (by tag and externalId).
      for (const b of made)
        expect((await api("DELETE", `/v1/beacons/${tag}/${b.externalId as string}`)).status).toBe(200);
      const back = await api("POST", `/api/beacons/import?format=${format}`, {
        key: null,
        headers: { cookie, "content-type": format === "csv" ? "text/csv" : "application/geo+json" },
        body: file,
      });
      expect(back.body).toMatchObject({ created: 2, replaced: 0 });
      const listed = (await api("GET", `/v1/beacons?tag=${tag}`)).body.beacons as Beacon[];
      expect(listed.map((b) => [b.externalId, b.uuid, b.major, b.minor, b.metadata]).sort()).toEqual(
        made.map((b) => [b.externalId, b.uuid, b.major, b.minor, b.metadata]).sort(),
      );
    }
    const okName = unique("ok");
    const bad = {
      type: "FeatureCollection",
      features: [
        {
          type: "Feature",
          geometry: { type: "Point", coordinates: [at.lng, at.lat] },
          properties: {
            description: okName,
            uuid: uuid(),
            major: 1,
            minor: 1,
          },
        },
        {
          type: "Feature",
          geometry: { type: "Point", coordinates: [at.lng, at.lat] },
          properties: { description: "bad", uuid: "nope", major: 1, minor: 1 },
        },
      ],
    };
    const refused = await api("POST", "/api/beacons/import?format=geojson", {
      key: null,
      headers: { cookie, "content-type": "application/geo+json" },
      body: JSON.stringify(bad),
    });
    expectError(refused, 400, "features[1].uuid");
    const none = (await api("GET", "/v1/beacons?limit=1000")).body.beacons as Beacon[];
    expect(none.some((b) => b.description === okName)).toBe(false);
  });
});
