import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { importOsm } from "../../server/imports/osm-import";
import { FRESH_ACCOUNTS, FRESH_PASSWORD } from "../../scripts/fresh-server";
import { api, expectError, keys, signIn, unique } from "../support/api";
import { metersFrom } from "../support/geo";
import { writeOsmPbf } from "../support/osm-pbf";
import { roadland, roadlandOsm } from "../support/road-fixture";

/**
 * Trips through the running server: the calls Radar's SDKs make, and tracking that
 * moves a trip on with a road ETA, on Roadland (tests/support/road-fixture.ts, imported here under
 * a name of its own).
 */

const geodata = inject("geodataDir");

type Trip = Record<string, unknown> & {
  _id: string;
  externalId: string;
  status: string;
  eta?: { distance: number; duration: number; source: string };
  destinationLocation?: { coordinates: number[] };
  legs?: { _id: string; status: string }[];
  locations?: unknown[];
};
type Answer = { trip: Trip; events: { type: string; trip?: Trip }[] };

async function track(userId: string, at: { lat: number; lng: number }, extra: Record<string, unknown> = {}) {
  const res = await api("POST", "/v1/track", {
    key: keys.publishable,
    json: {
      deviceId: `device-${userId}`,
      userId,
      latitude: at.lat,
      longitude: at.lng,
      accuracy: 5,
      ...extra,
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as unknown as { user: { trip?: Trip }; events: { type: string; trip?: Trip }[] };
}

async function circle(tag: string, externalId: string, at: { lat: number; lng: number }, radius = 30) {
  const res = await api("PUT", `/v1/geofences/${tag}/${externalId}`, {
    json: { description: externalId, type: "circle", coordinates: [at.lng, at.lat], radius },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

async function start(body: Record<string, unknown>, key = keys.secret): Promise<Answer> {
  const res = await api("POST", "/v1/trips", { key, json: body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as unknown as Answer;
}

async function update(ref: string, body: Record<string, unknown>, key = keys.publishable): Promise<Answer> {
  const res = await api("PATCH", `/v1/trips/${ref}/update`, { key, json: body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as unknown as Answer;
}

const types = (events: { type: string }[]) => events.map((e) => e.type);
const between = (a: { lat: number; lng: number }, b: { lat: number; lng: number }) => ({
  lat: (a.lat + b.lat) / 2,
  lng: (a.lng + b.lng) / 2,
});

beforeAll(async () => {
  mkdirSync(geodata, { recursive: true });
  const pbf = path.join(mkdtempSync(path.join(tmpdir(), "tripland-")), "tripland.osm.pbf");
  writeOsmPbf(pbf, roadlandOsm());
  await importOsm(pbf, { dir: geodata });
  const [a, d] = [roadland(1), roadland(4)];
  const deadline = Date.now() + 5000;
  for (;;) {
    const res = await api(
      "GET",
      `/v1/route/distance?origin=${a.lat},${a.lng}&destination=${d.lat},${d.lng}&modes=foot`,
    );
    if (!(res.body.routes as { foot: { unavailable?: string } }).foot.unavailable) break;
    if (Date.now() > deadline) throw new Error("the server did not pick up the import");
    await new Promise((r) => setTimeout(r, 200));
  }
});

afterAll(() => rmSync(path.join(geodata, "tripland.sqlite"), { force: true }));

describe("a trip tracked along a road", () => {
  it("starts, updates its road ETA, approaches once, arrives once and stops on complete", async () => {
    const userId = unique("courier");
    const tag = unique("store");
    await circle(tag, "north", roadland(4));
    await circle(tag, "other", roadland(2), 20);
    await track(userId, roadland(1));
    const externalId = unique("order");
    const created = await start({
      externalId,
      userId,
      destinationGeofenceTag: tag,
      destinationGeofenceExternalId: "north",
      mode: "foot",
      approachingThreshold: "2", // iOS sends it as a string
      scheduledArrivalAt: new Date(Date.now() + 60_000).toISOString().replace("Z", "+0000"),
      metadata: { order: 17 },
    });
    expect(created.trip).toMatchObject({
      externalId,
      status: "started",
      mode: "foot",
      approachingThreshold: 2,
    });
    expect(types(created.events)).toEqual(["user.started_trip"]);
    expect(created.trip.destinationLocation!.coordinates).toEqual([roadland(4).lng, roadland(4).lat]);

    // From A along Shore Road to B, C, up towards D: the ETA by road, shrinking.
    const atA = await track(userId, roadland(1));
    expect(atA.user.trip).toMatchObject({ externalId, status: "started" });
    expect(atA.user.trip!.eta!.source).toBe("road");
    expect(Math.abs(atA.user.trip!.eta!.distance - 333)).toBeLessThan(15);
    expect(types(atA.events)).toContain("user.updated_trip");
    // The user object carries the trip elsewhere too (Radar's user.trip).
    const read = await api("GET", `/v1/users/${userId}`);
    expect((read.body.user as { trip?: Trip }).trip).toMatchObject({ externalId, status: "started" });
    // The Trips page: the trip with where its user is, and its road left, from A to D.
    const cookie = await signIn(FRESH_ACCOUNTS.reviewer, FRESH_PASSWORD);
    const board = await fetch(`${inject("baseUrl")}/api/trips?destinationGeofenceTag=${tag}`, {
      headers: { cookie },
    });
    const shown = (
      (await board.json()) as { trips: (Trip & { user: { location: { coordinates: number[] } } })[] }
    ).trips;
    expect(shown.map((t) => t.externalId)).toEqual([externalId]);
    expect(shown[0]!.user.location.coordinates).toEqual([roadland(1).lng, roadland(1).lat]);
    const path = await fetch(`${inject("baseUrl")}/api/trips/${created.trip._id}/path`, {
      headers: { cookie },
    });
    const line = ((await path.json()) as { line: [number, number][] }).line;
    expect(line.length).toBeGreaterThanOrEqual(3);
    expect(line[0]![0]).toBeCloseTo(roadland(1).lng, 4);
    expect(line.at(-1)![1]).toBeCloseTo(roadland(4).lat, 4);
    const atB = await track(userId, roadland(2));
    expect(types(atB.events)).toContain("user.arrived_at_wrong_trip_destination");
    expect(atB.user.trip!.eta!.distance).toBeLessThan(atA.user.trip!.eta!.distance);
    expect((atB.user.trip!.delay as { delayed: boolean }).delayed).toBe(true);
    const atC = await track(userId, roadland(3));
    expect(types(atC.events).filter((t) => t.includes("trip"))).toEqual([
      "user.approaching_trip_destination",
    ]);
    expect(atC.user.trip!.status).toBe("approaching");
    const near = await track(userId, between(roadland(3), roadland(4)));
    expect(types(near.events)).toEqual(["user.updated_trip"]);
    const atD = await track(userId, roadland(4));
    expect(types(atD.events)).toContain("user.arrived_at_trip_destination");
    expect(types(atD.events)).toContain("user.entered_geofence");
    expect(atD.user.trip).toMatchObject({ status: "arrived", eta: { distance: 0, duration: 0 } });
    const still = await track(userId, roadland(4));
    expect(types(still.events)).toEqual(["user.updated_trip"]);

    // The mobile SDKs' completeTrip: PATCH …/update with status completed, by externalId, with their userId.
    const done = await update(externalId, { externalId, userId, status: "completed", mode: "foot" });
    expect(done.trip.status).toBe("completed");
    expect(types(done.events)).toEqual(["user.stopped_trip"]);
    const after = await track(userId, roadland(4));
    expect(after.user.trip).toBeUndefined();

    // A completed trip does not start again, and the refusal names the status.
    const again = await api("PATCH", `/v1/trips/${externalId}/update`, { json: { status: "started" } });
    expectError(again, 400, "status", /completed cannot become started/);

    // Read back with its locations while on it; listed by status and destination; trip events listed.
    const got = await api("GET", `/v1/trips/${created.trip._id}?includeLocations=true`);
    expect(got.body.trip).toMatchObject({
      _id: created.trip._id,
      status: "completed",
      metadata: { order: 17 },
    });
    expect((got.body.trip as Trip).locations!.length).toBeGreaterThanOrEqual(6);
    const listed = await api("GET", `/v1/trips?status=completed&destinationGeofenceTag=${tag}`);
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect((listed.body.trips as Trip[]).map((t) => t._id)).toEqual([created.trip._id]);
    const timeline = await fetch(`${inject("baseUrl")}/api/trips/${created.trip._id}/events`, {
      headers: { cookie },
    });
    const told = ((await timeline.json()) as { events: { type: string }[] }).events.map((e) => e.type);
    expect(told[0]).toBe("user.started_trip");
    expect(
      told.filter((t) => t !== "user.updated_trip" && t !== "user.arrived_at_wrong_trip_destination"),
    ).toEqual([
      "user.started_trip",
      "user.approaching_trip_destination",
      "user.arrived_at_trip_destination",
      "user.stopped_trip",
    ]);
    const events = await api(
      "GET",
      `/v1/events?types=user.approaching_trip_destination,user.arrived_at_trip_destination`,
    );
    const mine = (events.body.events as { type: string; trip: Trip }[]).filter(
      (e) => e.trip?.externalId === externalId,
    );
    expect(mine.map((e) => e.type).sort()).toEqual([
      "user.approaching_trip_destination",
      "user.arrived_at_trip_destination",
    ]);
  });

  it("starts and follows a trip from the track body's tripOptions, as the SDKs send them", async () => {
    const userId = unique("sdk-user");
    const tag = unique("pickup");
    await circle(tag, "curb", roadland(3));
    const externalId = unique("sdk-trip");
    const tripOptions = {
      externalId,
      destinationGeofenceTag: tag,
      destinationGeofenceExternalId: "curb",
      mode: "car",
      version: "2",
    };
    const first = await track(userId, roadland(1), { tripOptions });
    expect(types(first.events)).toContain("user.started_trip");
    expect(first.user.trip).toMatchObject({
      externalId,
      status: expect.stringMatching(/started|approaching/),
    });
    expect(first.user.trip!.destinationLocation!.coordinates).toHaveLength(2);
    const atC = await track(userId, roadland(3), { tripOptions });
    expect(types(atC.events)).toContain("user.arrived_at_trip_destination");
    const canceled = await update(externalId, { status: "canceled", userId });
    expect(types(canceled.events)).toEqual(["user.stopped_trip"]);
    // An ended trip named again by tripOptions is not restarted: no user.trip, so the SDK stops.
    const later = await track(userId, roadland(3), { tripOptions });
    expect(later.user.trip).toBeUndefined();
  });
});

describe("a trip named by another user's tripOptions", () => {
  it("is not moved on by them", async () => {
    const owner = unique("owner");
    const other = unique("other");
    await track(owner, roadland(1));
    const externalId = unique("mine");
    await start({ externalId, userId: owner, mode: "foot" });
    const stranger = await track(other, roadland(3), { tripOptions: { externalId } });
    expect(stranger.user.trip).toBeUndefined();
    expect(types(stranger.events).filter((t) => t.includes("trip"))).toEqual([]);
    const got = await api("GET", `/v1/trips/${externalId}`);
    expect((got.body.trip as Trip).userId).toBe(owner);
  });
});

describe("trip calls", () => {
  const spot = { lat: 48.1 + Math.random() * 0.01, lng: 11.5 + Math.random() * 0.01 };
  const m = metersFrom(spot);

  it("keeps a pending trip off the user until it is started, and falls back to the straight line without roads", async () => {
    const userId = unique("later");
    await track(userId, spot);
    const externalId = unique("pending");
    const pending = await start({
      externalId,
      userId,
      status: "pending",
      legs: [{ coordinates: [m.east(500), spot.lat] }],
    });
    expect(pending.trip.status).toBe("pending");
    expect(pending.events).toEqual([]);
    expect((await track(userId, spot)).user.trip).toBeUndefined();
    const started = await update(pending.trip._id, { status: "started" });
    expect(types(started.events)).toEqual(["user.started_trip"]);
    const moved = await track(userId, { lat: spot.lat, lng: m.east(100) });
    expect(moved.user.trip!.eta!.source).toBe("straight_line");
    expect(Math.abs(moved.user.trip!.eta!.distance - 400)).toBeLessThan(5);
  });

  it("goes through legs in order, reorders them, and arrives at the last", async () => {
    const userId = unique("multi");
    await track(userId, spot);
    const first = [m.east(300), spot.lat];
    const second = [m.east(600), spot.lat];
    const created = await start({
      externalId: unique("legs"),
      userId,
      mode: "car",
      legs: [
        { destination: { coordinates: second, arrivalRadius: 50 } },
        { coordinates: first, arrivalRadius: 50 },
      ],
    });
    const [a, b] = created.trip.legs!;
    expect(a!.status).toBe("started");
    const bad = await api("PUT", `/v1/trips/${created.trip._id}/legs`, { json: { legs: [a!._id] } });
    expectError(bad, 400, "legs", /each of the trip's 2 legs/);
    const reordered = await api("PUT", `/v1/trips/${created.trip._id}/legs`, {
      json: { legs: [b!._id, a!._id] },
    });
    expect(reordered.status, JSON.stringify(reordered.body)).toBe(200);
    expect((reordered.body.trip as Trip).destinationLocation!.coordinates).toEqual(first);
    const atFirst = await track(userId, { lat: spot.lat, lng: first[0]! });
    // Radar's names for every leg (Android reads any other type as a conversion); the leg rides
    // in event.trip.leg.
    const legArrival = atFirst.events.find((e) => e.type === "user.arrived_at_trip_destination");
    expect((legArrival?.trip as { leg?: { _id: string } } | undefined)?.leg?._id).toBe(b!._id);
    expect(atFirst.user.trip!.status).not.toBe("arrived");
    const onward = await track(userId, { lat: spot.lat, lng: m.east(450) });
    expect(onward.user.trip!.destinationLocation!.coordinates).toEqual(second);
    const atSecond = await track(userId, { lat: spot.lat, lng: second[0]! });
    expect(types(atSecond.events)).toContain("user.arrived_at_trip_destination");
    expect(atSecond.user.trip!.legs!.map((l) => l.status)).toEqual(["completed", "arrived"]);
  });

  it("answers a leg's update with the leg as the SDKs read it ({trip, leg, events})", async () => {
    const userId = unique("leg-answer");
    await track(userId, spot);
    const created = await start({
      externalId: unique("legs"),
      userId,
      legs: [{ coordinates: [m.east(300), spot.lat] }, { coordinates: [m.east(600), spot.lat] }],
    });
    const [a, b] = created.trip.legs!;
    const res = await api("PATCH", `/v1/trips/${created.trip._id}/legs/${a!._id}`, {
      json: { status: "arrived" },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.leg).toMatchObject({ _id: a!._id, status: "arrived" });
    expect(types(res.body.events as { type: string }[])).toEqual(["user.arrived_at_trip_destination"]);
    expect((res.body.trip as Trip).status).toBe("started");
    const last = await api("PATCH", `/v1/trips/${created.trip._id}/legs/${b!._id}`, {
      json: { status: "arrived" },
    });
    expect(last.body.leg).toMatchObject({ _id: b!._id, status: "arrived" });
    expect((last.body.trip as Trip).status).toBe("arrived");
  });

  it("keeps user.trip on the answer to an update older than the last (the SDKs end a trip without it)", async () => {
    const userId = unique("late");
    await track(userId, spot, { updatedAt: new Date(Date.now() - 60_000).toISOString() });
    const externalId = unique("kept");
    await start({ externalId, userId });
    const older = await track(userId, spot, { updatedAt: new Date(Date.now() - 120_000).toISOString() });
    expect(older.events).toEqual([]);
    expect(older.user.trip).toMatchObject({ externalId, status: "started" });
  });

  it("moves on a trip without a destination: started on the user's first update, then updated", async () => {
    const userId = unique("nowhere");
    const externalId = unique("open-ended");
    const made = await start({ externalId, userId, mode: "car" });
    expect(made.events).toEqual([]);
    const first = await track(userId, spot);
    expect(types(first.events)).toContain("user.started_trip");
    expect(first.user.trip).toMatchObject({ externalId, status: "started" });
    expect(first.user.trip!.destinationLocation).toBeUndefined();
    const next = await track(userId, { lat: spot.lat, lng: m.east(50) });
    expect(types(next.events)).toContain("user.updated_trip");
  });

  it("deletes a user's trips with the user", async () => {
    const userId = unique("forget-me");
    await track(userId, spot);
    const { trip } = await start({ externalId: unique("gone"), userId });
    expect((await api("DELETE", `/v1/users/${userId}`)).status).toBe(200);
    expectError(await api("GET", `/v1/trips/${trip._id}`), 404);
  });

  it("refuses bad input with the parameter named, and a taken externalId", async () => {
    expectError(await api("POST", "/v1/trips", { json: { userId: "u" } }), 400, "externalId");
    expectError(await api("POST", "/v1/trips", { json: { externalId: unique("x") } }), 400, "userId");
    expectError(
      await api("POST", "/v1/trips", { json: { externalId: unique("x"), userId: "u", mode: "rocket" } }),
      400,
      "mode",
    );
    expectError(
      await api("POST", "/v1/trips", {
        json: {
          externalId: unique("x"),
          userId: "u",
          destinationGeofenceTag: "nope",
          destinationGeofenceExternalId: "nope",
        },
      }),
      404,
      "destinationGeofenceExternalId",
    );
    expectError(
      await api("POST", "/v1/trips", { json: { externalId: unique("x"), userId: "u", legs: [{}] } }),
      400,
    );
    const externalId = unique("taken");
    await start({ externalId, userId: unique("u") });
    expectError(await api("POST", "/v1/trips", { json: { externalId, userId: "other" } }), 409, "externalId");
    expectError(await api("GET", "/v1/trips/nope-nope"), 404);
    expectError(await api("GET", "/v1/trips?limit=5000"), 400, "limit");
    expectError(await api("GET", "/v1/trips", { key: keys.publishable }), 403);
    const deleted = await api("DELETE", `/v1/trips/${externalId}`);
    expect(deleted.status).toBe(200);
    expectError(await api("GET", `/v1/trips/${externalId}`), 404);
  });
});
