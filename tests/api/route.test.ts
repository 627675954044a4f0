import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { importOsm } from "../../server/imports/osm-import";
import { pointInRing } from "../../server/geo/polygon";
import { FRESH_ACCOUNTS, FRESH_PASSWORD, serve } from "../../scripts/fresh-server";
import { api, expectError, keys, signIn, unique } from "../support/api";
import { writeOsmPbf } from "../support/osm-pbf";
import { ROADLAND_ORIGIN, roadland, roadlandOsm } from "../support/road-fixture";

/** GET /v1/route/distance through the running server, on Roadland (tests/support/road-fixture.ts). */

const geodata = inject("geodataDir");
/** A point a few meters along the road from node a towards node b. */
const along = (a: number, b: number) => {
  const [p, q] = [roadland(a), roadland(b)];
  const f = 0.02 / Math.max(1, Math.hypot(q.lng - p.lng, q.lat - p.lat) / 0.001);
  return `${p.lat + f * (q.lat - p.lat)},${p.lng + f * (q.lng - p.lng)}`;
};
type Routes = Record<
  string,
  {
    distance?: { value: number; text: string };
    duration?: { value: number; text: string };
    unavailable?: string;
  }
>;

async function routes(params: Record<string, string>) {
  const res = await api("GET", `/v1/route/distance?${new URLSearchParams(params)}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.routes as Routes;
}

beforeAll(async () => {
  mkdirSync(geodata, { recursive: true });
  const pbf = path.join(mkdtempSync(path.join(tmpdir(), "roadland-")), "roadland.osm.pbf");
  writeOsmPbf(pbf, roadlandOsm());
  await importOsm(pbf, { dir: geodata });
  const deadline = Date.now() + 5000;
  while ((await routes({ origin: along(1, 2), destination: along(4, 3), modes: "car" })).car?.unavailable) {
    if (Date.now() > deadline) throw new Error("the server did not pick up the import");
    await new Promise((r) => setTimeout(r, 200));
  }
});

afterAll(() => rmSync(path.join(geodata, "roadland.sqlite"), { force: true }));

describe("GET /v1/route/distance", () => {
  it("answers the geodesic and each mode's distance and duration over the roads", async () => {
    const r = await routes({ origin: along(4, 3), destination: along(3, 4), modes: "car,foot,bike" });
    expect(r.geodesic!.distance!.value).toBeGreaterThan(100);
    expect(r.geodesic!.distance!.value).toBeLessThan(115);
    // By car not against the one-way C→D: around the block, D E A B C (555 m).
    expect(Math.abs(r.car!.distance!.value - 555)).toBeLessThan(10);
    expect(r.car!.distance!.text).toBe("555 m".replace(/\d+/, String(Math.round(r.car!.distance!.value))));
    expect(r.car!.duration!.value).toBeGreaterThan(1);
    expect(r.car!.duration!.text).toMatch(/^\d+ min$/);
    // On foot and by bike straight down (bikes pushed against the one-way).
    expect(Math.abs(r.foot!.distance!.value - 111)).toBeLessThan(10);
    expect(Math.abs(r.bike!.distance!.value - 111)).toBeLessThan(10);
    expect(Object.keys(r).sort()).toEqual(["bike", "car", "foot", "geodesic"]);
  });

  it("answers truck and motorbike, which Radar's SDKs send, by the car's route", async () => {
    const r = await routes({ origin: along(4, 3), destination: along(3, 4), modes: "truck,motorbike,car" });
    expect(Object.keys(r)).toEqual(["geodesic", "truck", "motorbike", "car"]);
    expect(r.truck).toEqual(r.car);
    expect(r.motorbike).toEqual(r.car);
    const m = await api(
      "GET",
      `/v1/route/matrix?${new URLSearchParams({ origins: along(4, 3), destinations: along(3, 4), mode: "truck" })}`,
    );
    expect(m.status, JSON.stringify(m.body)).toBe(200);
    expect((m.body.matrix as Cell[][])[0]![0]!.distance!.value).toBeCloseTo(r.car!.distance!.value, 1);
  });

  it("draws the route as GeoJSON or an encoded polyline when asked", async () => {
    const params = { origin: along(4, 3), destination: along(3, 4), modes: "car" };
    const line = await routes({ ...params, geometry: "linestring" });
    const geometry = (line.car as { geometry: { type: string; coordinates: [number, number][] } }).geometry;
    expect(geometry.type).toBe("LineString");
    // From the origin round the block (through A at Roadland's corner) to the destination.
    expect(geometry.coordinates[0]).toEqual(
      along(4, 3)
        .split(",")
        .map(Number)
        .reverse()
        .map((x) => Math.round(x * 1e6) / 1e6),
    );
    expect(geometry.coordinates).toContainEqual([roadland(1).lng, roadland(1).lat]);
    const poly = await routes({ ...params, geometry: "polyline6" });
    expect((poly.car as { geometry: { polyline: string } }).geometry.polyline).toMatch(/^[\x3f-\x7e]+$/);
    expect((await routes(params)).car).not.toHaveProperty("geometry");
    expectError(
      await api("GET", `/v1/route/distance?${new URLSearchParams({ ...params, geometry: "svg" })}`),
      400,
      "geometry",
    );
  });

  it("does not drive the way from a point to its road: off-road points route from where they meet it", async () => {
    // 133 m south of Shore Road (cars cannot take the steps; the ferry is farther), 44 m apart along it.
    const off = (dx: number) => `${ROADLAND_ORIGIN.lat - 0.0012},${ROADLAND_ORIGIN.lng + dx}`;
    const same = await routes({ origin: off(0.0002), destination: off(0.0002), modes: "car" });
    expect(same.car!.distance!.value).toBe(0);
    expect(same.car!.duration).toEqual({ value: 0, text: "0 min" });
    const apart = await routes({
      origin: off(0.0002),
      destination: off(0.0006),
      modes: "car",
      geometry: "linestring",
    });
    expect(Math.abs(apart.car!.distance!.value - 44.5), JSON.stringify(apart)).toBeLessThan(1);
    // The line runs along the road, from the origin's road position to the destination's.
    const line = (apart.car as { geometry: { coordinates: [number, number][] } }).geometry.coordinates;
    expect(line[0]![1]).toBeCloseTo(ROADLAND_ORIGIN.lat, 6);
    expect(line.at(-1)![1]).toBeCloseTo(ROADLAND_ORIGIN.lat, 6);
    const m = await api(
      "GET",
      `/v1/route/matrix?${new URLSearchParams({ origins: off(0.0002), destinations: `${off(0.0002)}|${off(0.0006)}`, mode: "car" })}`,
    );
    const row = (m.body.matrix as Cell[][])[0]!;
    expect(row.map((c) => c.distance!.value)).toEqual([0, apart.car!.distance!.value]);
  });

  it("answers imperial units in feet and miles", async () => {
    const r = await routes({
      origin: along(1, 2),
      destination: along(4, 3),
      modes: "car",
      units: "imperial",
    });
    expect(Math.abs(r.car!.distance!.value - 333 * 3.28084)).toBeLessThan(40);
    expect(r.car!.distance!.text).toBe("0.2 mi"); // feet below a tenth of a mile (528 ft)
  });

  it("stops cars at the bollard, and avoids the ferry when asked", async () => {
    const bollard = await routes({ origin: along(6, 7), destination: along(8, 7), modes: "car,foot" });
    expect(bollard.car!.unavailable).toMatch(/no route/);
    expect(Math.abs(bollard.foot!.distance!.value - 222)).toBeLessThan(10);
    const ferry = await routes({ origin: along(3, 10), destination: along(10, 3), modes: "car" });
    expect(ferry.car!.duration!.value).toBeGreaterThan(9);
    const avoided = await routes({
      origin: along(3, 10),
      destination: along(10, 3),
      modes: "car",
      avoid: "ferries",
    });
    expect(avoided.car!.unavailable).toBeDefined();
  });

  it("says when no imported roads cover the trip, and that no feed serves it, with the geodesic", async () => {
    const r = await routes({ origin: "48.8566,2.3522", destination: "48.8606,2.3376", modes: "car,transit" });
    expect(r.geodesic!.distance!.value).toBeGreaterThan(1000);
    expect(r.car).toEqual({ unavailable: expect.stringMatching(/no imported roads/) });
    expect(r.transit).toMatchObject({
      unavailable: expect.stringMatching(/no imported transit timetables serve/),
    });
  });

  it("refuses bad input with the parameter named", async () => {
    const ok = { origin: along(1, 2), destination: along(4, 3), modes: "car" };
    const bad = async (params: Record<string, string>, param: string, message?: RegExp) =>
      expectError(await api("GET", `/v1/route/distance?${new URLSearchParams(params)}`), 400, param, message);
    await bad({ ...ok, modes: "car,plane" }, "modes", /'plane'/);
    await bad({ origin: ok.origin, destination: ok.destination }, "modes", /required/);
    await bad({ ...ok, units: "furlongs" }, "units", /metric or imperial/);
    await bad({ ...ok, origin: "0.5" }, "origin");
    await bad({ ...ok, destination: ",2.001" }, "destination", /latitude/);
    await bad({ ...ok, destination: "0.5," }, "destination", /longitude/);
    await bad({ ...ok, avoid: "potholes" }, "avoid", /'potholes'/);
  });

  it("refuses a point among the imported roads but more than 1 km from any, naming it", async () => {
    // Between Roadland and Far Lane (3 km to the north-east): about 2 km from either.
    const between = `${roadland(1).lat + 0.015},${roadland(1).lng + 0.015}`;
    const ok = along(1, 2);
    const bad = async (params: Record<string, string>, param: string) =>
      expectError(
        await api("GET", `/v1/route/distance?${new URLSearchParams(params)}`),
        400,
        param,
        /within 1 km/,
      );
    await bad({ origin: between, destination: ok, modes: "car,foot" }, "origin");
    await bad({ origin: ok, destination: between, modes: "bike" }, "destination");
    // Far Lane itself is routed to: no road joins it, which is said as such.
    const island = await routes({
      origin: ok,
      destination: `${roadland(13).lat},${roadland(13).lng + 0.0005}`,
      modes: "car",
    });
    expect(island.car!.unavailable).toMatch(/no route/);
  });
});

type Cell = {
  originIndex: number;
  destinationIndex: number;
  distance?: { value: number };
  duration?: { value: number };
  unavailable?: string;
};

describe("GET /v1/route/matrix", () => {
  it("answers every origin to every destination, with their indexes, as distance computes them", async () => {
    const origins = [along(1, 2), along(4, 3)];
    const destinations = [along(4, 3), along(3, 4), "48.8566,2.3522"];
    const res = await api(
      "GET",
      `/v1/route/matrix?${new URLSearchParams({ origins: origins.join("|"), destinations: destinations.join("|"), mode: "car" })}`,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.origins).toHaveLength(2);
    const matrix = res.body.matrix as Cell[][];
    expect(matrix.map((row) => row.map((c) => [c.originIndex, c.destinationIndex]))).toEqual([
      [
        [0, 0],
        [0, 1],
        [0, 2],
      ],
      [
        [1, 0],
        [1, 1],
        [1, 2],
      ],
    ]);
    // The same numbers as the distance endpoint for the same pairs.
    for (const [i, o] of origins.entries()) {
      for (const [j, d] of destinations.slice(0, 2).entries()) {
        const single = await routes({ origin: o, destination: d, modes: "car" });
        expect(matrix[i]![j]!.distance!.value).toBeCloseTo(single.car!.distance!.value, 1);
      }
    }
    expect(Math.abs(matrix[1]![1]!.distance!.value - 555)).toBeLessThan(10); // around the one-way block
    expect(matrix[0]![2]!.unavailable).toMatch(/no imported roads/); // Paris: not imported
  });

  it("refuses more than 625 pairs, and bad input, with the parameter named", async () => {
    const point = along(1, 2);
    const many = Array.from({ length: 26 }, () => point).join("|");
    const bad = async (params: Record<string, string>, param: string, message?: RegExp) =>
      expectError(await api("GET", `/v1/route/matrix?${new URLSearchParams(params)}`), 400, param, message);
    await bad(
      { origins: many, destinations: many.split("|").slice(0, 25).join("|"), mode: "car" },
      "destinations",
      /625.*26 × 25/,
    );
    await bad({ origins: point, destinations: `${point}|0.5`, mode: "car" }, "destinations", /point 2/);
    const between = `${roadland(1).lat + 0.015},${roadland(1).lng + 0.015}`;
    await bad(
      { origins: `${point}|${between}`, destinations: point, mode: "car" },
      "origins",
      /origin 2.*within 1 km/,
    );
    await bad(
      { origins: point, destinations: `${between}|${point}`, mode: "foot" },
      "destinations",
      /destination 1/,
    );
    await bad(
      { origins: point, destinations: point, mode: "plane" },
      "mode",
      /foot, bike, car, truck, motorbike, transit/,
    );
    await bad({ origins: point, destinations: point }, "mode", /required/);
    await bad({ destinations: point, mode: "car" }, "origins", /required/);
    await bad({ origins: point, destinations: point, mode: "car", units: "parsecs" }, "units");
    // 25 × 25 is allowed.
    const full = Array.from({ length: 25 }, () => point).join("|");
    const ok = await api(
      "GET",
      `/v1/route/matrix?${new URLSearchParams({ origins: full, destinations: full, mode: "foot" })}`,
    );
    expect(ok.status).toBe(200);
    expect((ok.body.matrix as Cell[][]).flat()).toHaveLength(625);
  });

  it("takes bigger matrices where ROUTE_MATRIX_MAX_CELLS raises the limit", async () => {
    const other = await serve(inject("databaseUrl"), {
      env: { GEODATA_DIR: geodata, ROUTE_MATRIX_MAX_CELLS: "10000" },
    });
    try {
      // 100 × 100 points spread along Shore Road and Back Lane, by car.
      const points = Array.from({ length: 100 }, (_, i) =>
        i % 2 ? along(1, 2).replace(/,.*/, `,${roadland(1).lng + 0.00002 * i}`) : along(4, 5),
      ).join("|");
      const url = `/v1/route/matrix?${new URLSearchParams({ origins: points, destinations: points, mode: "car" })}`;
      expectError(await api("GET", url), 400, "destinations", /625.*100 × 100/);
      const res = await fetch(`${other.url}${url}`, { headers: { authorization: keys.secret } });
      const body = (await res.json()) as { matrix: Cell[][] };
      expect(res.status, JSON.stringify(body).slice(0, 300)).toBe(200);
      expect(body.matrix.flat()).toHaveLength(10_000);
      expect(body.matrix.flat().every((c) => c.distance)).toBe(true);
      expect(body.matrix[0]![0]!.distance!.value).toBe(0);
    } finally {
      await other.stop();
    }
  });
});

describe("GET /v1/route/optimize", () => {
  type Leg = {
    startLocation: { latitude: number; longitude: number };
    endLocation: { latitude: number; longitude: number };
    distance: { value: number };
    duration: { value: number };
    geometry: { polyline?: string; coordinates?: number[][] };
  };
  type Optimized = {
    route: {
      distance: { value: number };
      duration: { value: number };
      legs: Leg[];
      geometry: { polyline?: string; coordinates?: number[][] };
    };
    locations: { latitude: number; longitude: number; originalIndex: number }[];
  };
  const optimize = async (params: Record<string, string>) => {
    const res = await api("GET", `/v1/route/optimize?${new URLSearchParams(params)}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as unknown as Optimized;
  };

  it("visits the stops in the order that takes least time, each leg as the distance endpoint routes it", async () => {
    // From near 1 to near 5, by near 4 and near 2: 2 first (Up Street is one-way up from 3),
    // then 4, is far shorter than 4 then 2 (round by Back Lane twice).
    const points = [along(1, 2), along(4, 5), along(2, 3), along(5, 4)];
    const r = await optimize({ locations: points.join("|"), mode: "car", geometry: "linestring" });
    expect(r.locations.map((l) => l.originalIndex)).toEqual([0, 2, 1, 3]);
    expect(r.route.legs).toHaveLength(3);
    let meters = 0;
    for (const [k, leg] of r.route.legs.entries()) {
      const [from, to] = [points[r.locations[k]!.originalIndex]!, points[r.locations[k + 1]!.originalIndex]!];
      expect(`${leg.startLocation.latitude},${leg.startLocation.longitude}`).toBe(from);
      const single = await routes({ origin: from, destination: to, modes: "car" });
      expect(leg.distance.value).toBeCloseTo(single.car!.distance!.value, 1);
      expect(leg.duration.value).toBeCloseTo(single.car!.duration!.value, 1);
      expect(leg.geometry.coordinates!.length).toBeGreaterThanOrEqual(2);
      meters += leg.distance.value;
    }
    expect(r.route.distance.value).toBeCloseTo(meters, 0);
    expect(r.route.geometry.coordinates!.length).toBeGreaterThan(3);
    // The default line is an encoded polyline of 6 digits.
    const encoded = await optimize({ locations: points.join("|") });
    expect(typeof encoded.route.geometry.polyline).toBe("string");
    expect(encoded.locations.map((l) => l.originalIndex)).toEqual([0, 2, 1, 3]);
  });

  it("says when the roads do not join the locations, and refuses bad input with the parameter named", async () => {
    const far = await optimize({ locations: [along(1, 2), "48.8566,2.3522", along(4, 5)].join("|") });
    expect((far.route as unknown as { unavailable: string }).unavailable).toMatch(/no imported roads/);
    expect(far.locations.map((l) => l.originalIndex)).toEqual([0, 1, 2]);
    const bad = async (params: Record<string, string>, param: string) =>
      expectError(await api("GET", `/v1/route/optimize?${new URLSearchParams(params)}`), 400, param);
    await bad({ locations: along(1, 2) }, "locations");
    await bad({ locations: Array.from({ length: 11 }, () => along(1, 2)).join("|") }, "locations");
    await bad({ locations: `${along(1, 2)}|0.5` }, "locations");
    await bad({ locations: `${along(1, 2)}|${along(4, 5)}`, mode: "transit" }, "mode");
    await bad({ locations: `${along(1, 2)}|${along(4, 5)}`, geometry: "svg" }, "geometry");
  });
});

describe("GET /v1/route/isochrone", () => {
  type Feature = {
    properties: { minutes: number; mode: string };
    geometry: { type: string; coordinates: [number, number][][][] };
  };
  const covers = (f: Feature, node: number) => {
    const { lng, lat } = roadland(node);
    return f.geometry.coordinates.some(
      ([outer, ...holes]) => pointInRing(lng, lat, outer!) && !holes.some((h) => pointInRing(lng, lat, h)),
    );
  };

  it("draws what a mode reaches within each time, as GeoJSON, from the engine's own search", async () => {
    const res = await api(
      "GET",
      `/v1/route/isochrone?${new URLSearchParams({ origin: along(1, 2), mode: "foot", minutes: "3,1" })}`,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const features = (res.body.isochrones as { type: string; features: Feature[] }).features;
    expect((res.body.isochrones as { type: string }).type).toBe("FeatureCollection");
    expect(features.map((f) => f.properties)).toEqual([
      { minutes: 1, mode: "foot" },
      { minutes: 3, mode: "foot" },
    ]);
    const [one, three] = features as [Feature, Feature];
    expect(one.geometry.type).toBe("MultiPolygon");
    // At 5 km/h (83 m a minute): A within a minute, C (220 m) not; B, C and E (113 m) within
    // three; M (550 m) in neither. (B, 26 m beyond a minute's reach, lies within the margin.)
    expect([covers(one, 1), covers(one, 3)]).toEqual([true, false]);
    expect([covers(three, 2), covers(three, 3), covers(three, 5), covers(three, 8)]).toEqual([
      true,
      true,
      true,
      false,
    ]);
  });

  it("refuses bad input with the parameter named, and says when no roads are imported there", async () => {
    const bad = async (params: Record<string, string>, param: string, message?: RegExp) =>
      expectError(
        await api("GET", `/v1/route/isochrone?${new URLSearchParams(params)}`),
        400,
        param,
        message,
      );
    const origin = along(1, 2);
    await bad({ origin }, "minutes", /required/);
    await bad({ origin, minutes: "0" }, "minutes", /1 to 60/);
    await bad({ origin, minutes: "61" }, "minutes", /1 to 60/);
    await bad({ origin, minutes: "ten" }, "minutes", /1 to 60/);
    await bad({ origin, minutes: "1,2,3,4,5" }, "minutes", /at most 4/);
    await bad({ origin, minutes: "5", mode: "transit" }, "mode");
    await bad({ minutes: "5" }, "origin");
    const between = `${roadland(1).lat + 0.015},${roadland(1).lng + 0.015}`;
    await bad({ origin: between, minutes: "5" }, "origin", /within 1 km/);
    const paris = await api(
      "GET",
      `/v1/route/isochrone?${new URLSearchParams({ origin: "48.85,2.35", minutes: "5" })}`,
    );
    expect(paris.status).toBe(200);
    expect((paris.body.isochrones as { features: unknown[] }).features).toEqual([]);
    expect(paris.body.unavailable).toMatch(/no imported roads/);
  });
});

describe("isochrone geofences", () => {
  type Geofence = {
    _id: string;
    type: string;
    updatedAt: string;
    geometry: { type: string; coordinates: [number, number][][] };
    geometryCenter: { coordinates: [number, number] };
    geometryRadius: number;
    isochrone?: { mode: string; minutes: number };
  };
  const [lat, lng] = along(1, 2).split(",").map(Number) as [number, number];
  const inside = (g: Geofence, node: number) =>
    pointInRing(roadland(node).lng, roadland(node).lat, g.geometry.coordinates[0]!);
  const make = (fields: Record<string, unknown>) =>
    api("POST", "/v1/geofences", {
      json: { description: "five minutes' walk", type: "isochrone", coordinates: [lng, lat], ...fields },
    });

  it("draws the polygon from the roads, behaves as a polygon in tracking, and keeps it through a patch", async () => {
    const res = await make({ radius: 5, mode: "foot", tag: "walk", externalId: unique("iso") });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const g = res.body.geofence as Geofence;
    expect(g.type).toBe("isochrone");
    expect(g.isochrone).toEqual({ mode: "foot", minutes: 5 });
    expect(g.geometry.type).toBe("Polygon");
    expect(g.geometry.coordinates).toHaveLength(1); // one ring, as Radar's SDKs read it
    expect(g.geometryCenter.coordinates).toEqual([lng, lat]);
    // 5 min at 5 km/h (416 m): A, B, C, D (335 m round by E), G down the steps; not M (553 m).
    expect([1, 2, 3, 4, 9].map((n) => inside(g, n))).toEqual([true, true, true, true, true]);
    expect(inside(g, 8)).toBe(false);
    expect(g.geometryRadius).toBeGreaterThan(300);

    const deviceId = unique("iso-device");
    const at = (node: number) =>
      api("POST", "/v1/track", {
        key: keys.publishable,
        json: {
          deviceId,
          userId: deviceId,
          latitude: roadland(node).lat,
          longitude: roadland(node).lng,
          accuracy: 5,
        },
      });
    const entry = await at(3);
    expect(entry.status).toBe(200);
    const events = entry.body.events as { type: string; geofence?: { _id: string } }[];
    expect(events.some((e) => e.type === "user.entered_geofence" && e.geofence?._id === g._id)).toBe(true);
    const exit = await at(8);
    expect(
      (exit.body.events as { type: string; geofence?: { _id: string } }[]).some(
        (e) => e.type === "user.exited_geofence" && e.geofence?._id === g._id,
      ),
    ).toBe(true);

    const patched = await api("PATCH", `/v1/geofences/${g._id}`, { json: { description: "renamed" } });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    const after = patched.body.geofence as Geofence;
    expect(after.geometry).toEqual(g.geometry);
    expect(after.isochrone).toEqual({ mode: "foot", minutes: 5 });
    const longer = await api("PATCH", `/v1/geofences/${g._id}`, { json: { radius: 10 } });
    expect(longer.status, JSON.stringify(longer.body)).toBe(200);
    expect((longer.body.geofence as Geofence).isochrone).toEqual({ mode: "foot", minutes: 10 });
    expect(inside(longer.body.geofence as Geofence, 8)).toBe(true);
  });

  it("refuses what cannot be drawn, naming the parameter", async () => {
    expectError(await make({ radius: 4 }), 400, "radius", /5 and 60 minutes/);
    expectError(await make({}), 400, "radius", /required/);
    expectError(await make({ radius: 5, mode: "plane" }), 400, "mode");
    expectError(
      await api("POST", "/v1/geofences", {
        json: { description: "c", type: "circle", coordinates: [lng, lat], radius: 50, mode: "car" },
      }),
      400,
      "mode",
      /only for isochrone/,
    );
    const between = [roadland(1).lng + 0.015, roadland(1).lat + 0.015];
    expectError(await make({ radius: 5, coordinates: between }), 400, "coordinates", /within 1 km/);
    expectError(await make({ radius: 5, coordinates: [2.35, 48.85] }), 400, "coordinates", /npm run import/);
  });

  it("exports as its center, minutes and mode, and is drawn again from them on import (GeoJSON and CSV)", async () => {
    const tag = unique("iso-transfer");
    const made = await make({ radius: 6, mode: "bike", tag, externalId: "x" });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const cookie = await signIn(FRESH_ACCOUNTS.analyst, FRESH_PASSWORD);
    for (const format of ["geojson", "csv"] as const) {
      const out = await fetch(`${inject("baseUrl")}/api/geofences/export?format=${format}&tag=${tag}`, {
        headers: { cookie },
      });
      const file = await out.text();
      if (format === "csv") expect(file).toContain(`isochrone,"[${lng},${lat}]",6,`);
      else
        expect(JSON.parse(file).features[0].properties).toMatchObject({
          type: "isochrone",
          radius: 6,
          mode: "bike",
        });
      // Deleted, then imported back: the same polygon, drawn again on the same roads.
      expect((await api("DELETE", `/v1/geofences/${tag}/x`)).status).toBe(200);
      const back = await fetch(`${inject("baseUrl")}/api/geofences/import?format=${format}`, {
        method: "POST",
        headers: {
          cookie,
          origin: inject("baseUrl"),
          "content-type": format === "csv" ? "text/csv" : "application/geo+json",
        },
        body: file,
      });
      expect(back.status, await back.clone().text()).toBe(200);
      expect(await back.text()).toMatch(/"created":1/);
      const again = (await api("GET", `/v1/geofences/${tag}/x`)).body.geofence as Geofence;
      expect(again.isochrone).toEqual({ mode: "bike", minutes: 6 });
      expect(again.geometry).toEqual((made.body.geofence as Geofence).geometry);
    }
  });

  it("is drawn again when the roads are imported anew", async () => {
    const res = await make({ radius: 5, mode: "foot" });
    const g = res.body.geofence as Geofence;
    expect(inside(g, 9)).toBe(true); // G, down the steps from B
    const withoutSteps = roadlandOsm();
    withoutSteps.ways = withoutSteps.ways.filter((w) => w.tags?.highway !== "steps");
    const reimport = async (osm: ReturnType<typeof roadlandOsm>) => {
      const pbf = path.join(mkdtempSync(path.join(tmpdir(), "roadland-")), "roadland.osm.pbf");
      writeOsmPbf(pbf, osm);
      await importOsm(pbf, { dir: geodata });
    };
    await reimport(withoutSteps);
    try {
      const deadline = Date.now() + 20_000;
      let now = g;
      while (now.updatedAt === g.updatedAt) {
        if (Date.now() > deadline) throw new Error("the isochrone was not drawn again");
        await new Promise((r) => setTimeout(r, 250));
        now = (await api("GET", `/v1/geofences/${g._id}`)).body.geofence as Geofence;
      }
      expect(inside(now, 9)).toBe(false);
      expect(inside(now, 3)).toBe(true);
    } finally {
      await reimport(roadlandOsm());
    }
  }, 30_000);
});

describe("GET /v1/route/directions", () => {
  type Step = {
    instruction: string;
    maneuver: { type: string; modifier?: string; location: { latitude: number; longitude: number } };
    name?: string;
    distance: { value: number };
    duration: { value: number };
    geometry: { type: string; coordinates: [number, number][] };
  };
  type Leg = {
    startLocation: unknown;
    endLocation: unknown;
    distance: { value: number };
    duration: { value: number };
    steps: Step[];
  };
  const directions = async (params: Record<string, string>) => {
    const res = await api("GET", `/v1/route/directions?${new URLSearchParams(params)}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.routes as { distance: { value: number }; legs: Leg[] }[];
  };

  it("turns through Roadland leg by leg, each leg as the distance endpoint routes it, in three languages", async () => {
    // By car from Up Street round the one-way block: a few meters up Up Street to D, Back Lane,
    // Shore Road, Up Street again.
    const locations = `${along(4, 3)}|${along(3, 4)}|${along(1, 2)}`;
    const [route] = await directions({ locations, mode: "car", geometry: "linestring" });
    expect(route!.legs).toHaveLength(2);
    const first = route!.legs[0]!;
    expect(first.steps.map((s) => [s.maneuver.type, s.maneuver.modifier ?? "", s.name ?? ""])).toEqual([
      ["depart", "", "Up Street"],
      ["turn", "left", "Back Lane"],
      ["turn", "left", "Shore Road"],
      ["turn", "left", "Up Street"],
      ["arrive", "", "Up Street"],
    ]);
    expect(first.steps.map((s) => s.instruction)).toEqual([
      "Head north on Up Street",
      "Turn left onto Back Lane",
      "Turn left onto Shore Road",
      "Turn left onto Up Street",
      "You have arrived at your 1st destination",
    ]);
    // Each leg is what the distance endpoint answers for its pair, and its steps add up to it.
    for (const [i, [o, d]] of [
      [along(4, 3), along(3, 4)],
      [along(3, 4), along(1, 2)],
    ].entries()) {
      const single = (await routes({ origin: o!, destination: d!, modes: "car" })).car!;
      expect(route!.legs[i]!.distance.value).toBe(single.distance!.value);
      expect(route!.legs[i]!.duration.value).toBe(single.duration!.value);
      const sum = route!.legs[i]!.steps.reduce((s, x) => s + x.distance.value, 0);
      expect(Math.abs(sum - single.distance!.value)).toBeLessThan(1);
    }
    expect(route!.distance.value).toBeCloseTo(
      route!.legs[0]!.distance.value + route!.legs[1]!.distance.value,
      0,
    );
    const de = await directions({ locations, mode: "car", lang: "de" });
    expect(de[0]!.legs[0]!.steps[2]!.instruction).toBe("Links abbiegen auf Shore Road");
    const fr = await directions({ locations, mode: "car", lang: "fr-FR" });
    expect(fr[0]!.legs[0]!.steps[2]!.instruction).toBe("Tourner à gauche sur Shore Road");
    // With alternatives, the best route comes first, as without.
    const withAlternatives = await directions({ locations, mode: "car", alternatives: "true" });
    expect(withAlternatives[0]!.distance.value).toBe(route!.distance.value);
    // Polylines by default.
    expect((de[0]!.legs[0]!.steps[1]!.geometry as unknown as { polyline: string }).polyline).toMatch(
      /^[\x3f-\x7e]+$/,
    );
  });

  it("refuses bad input with the parameter named, and says which leg has no route", async () => {
    const bad = async (params: Record<string, string>, param: string, message?: RegExp) =>
      expectError(
        await api("GET", `/v1/route/directions?${new URLSearchParams(params)}`),
        400,
        param,
        message,
      );
    const point = along(1, 2);
    await bad({ locations: point }, "locations", /2 to 25/);
    await bad({ locations: Array.from({ length: 26 }, () => point).join("|") }, "locations", /2 to 25/);
    await bad({ locations: `${point}|nowhere` }, "locations", /point 2/);
    await bad({ locations: `${point}|${point}`, lang: "tlh" }, "lang", /en/);
    await bad({ locations: `${point}|${point}`, mode: "transit" }, "mode");
    await bad({ locations: `${point}|${point}`, geometry: "svg" }, "geometry");
    const between = `${roadland(1).lat + 0.015},${roadland(1).lng + 0.015}`;
    await bad({ locations: `${point}|${between}` }, "locations", /location 2 has no road within 1 km/);
    // A car cannot pass the bollard at L: the second leg has no route.
    const none = await directions({ locations: `${point}|${along(6, 7)}|${along(8, 7)}`, mode: "car" });
    expect(none).toEqual([]);
    const res = await api(
      "GET",
      `/v1/route/directions?${new URLSearchParams({ locations: `${point}|${along(6, 7)}|${along(8, 7)}` })}`,
    );
    expect(res.body.unavailable).toMatch(/^leg 2 .*no route/);
  });
});

describe("POST /v1/route/match", () => {
  type Matched = {
    matchedPath: { coordinates: [number, number]; originalIndex: number }[];
    distance: { value: number };
    geometry?: { type: string; coordinates: [number, number][] };
    stretches: { startIndex: number; endIndex: number; distance: { value: number } }[];
    roadAttributes?: {
      names?: string[];
      roadClass?: string | null;
      speedLimit?: unknown;
      distance: { value: number };
    }[];
  };
  /** A fix `dy` degrees north of a point `f` of the way from node a to node b. */
  const fix = (a: number, b: number, f: number, dy: number) => {
    const [p, q] = [roadland(a), roadland(b)];
    return { coordinates: [p.lng + f * (q.lng - p.lng), p.lat + f * (q.lat - p.lat) + dy], accuracy: 15 };
  };

  it("snaps a noisy drive onto Shore Road and up Up Street, with its length and the roads' names and classes", async () => {
    // West to east along Shore Road a few meters off it, then north up Up Street.
    const path = [
      fix(1, 2, 0.1, 0.00008),
      fix(1, 2, 0.6, -0.0001),
      fix(2, 3, 0.2, 0.00009),
      fix(2, 3, 0.7, -0.00007),
      fix(3, 4, 0.4, 0),
      "0.500900,2.002050", // "lat,lng" too: on Up Street, 5 m east of it
    ];
    const res = await api("POST", "/v1/route/match", {
      json: { path, mode: "car", roadAttributes: "names,roadClass,speedLimit", geometry: "linestring" },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const m = res.body as unknown as Matched;
    expect(m.matchedPath.map((p) => p.originalIndex)).toEqual([0, 1, 2, 3, 4, 5]);
    // On the roads: Shore Road's fixes on its latitude, Up Street's on its longitude.
    for (const p of m.matchedPath.slice(0, 4)) expect(p.coordinates[1]).toBeCloseTo(roadland(1).lat, 6);
    for (const p of m.matchedPath.slice(4)) expect(p.coordinates[0]).toBeCloseTo(roadland(3).lng, 6);
    // From 11 m along Shore Road to 100 m up Up Street: about 211 + 100 m.
    expect(Math.abs(m.distance.value - 300)).toBeLessThan(15);
    expect(m.geometry!.type).toBe("LineString");
    expect(m.stretches).toHaveLength(1);
    expect(m.roadAttributes!.map((r) => [r.names, r.roadClass, r.speedLimit])).toEqual([
      [["Shore Road"], "residential", null],
      [["Up Street"], "residential", null],
    ]);
  });

  it("breaks where no road joins two fixes rather than jump, and leaves fixes far from roads unmatched", async () => {
    const far = { coordinates: [roadland(13).lng, roadland(13).lat], accuracy: 10 }; // Far Lane, not joined
    const sea = { coordinates: [roadland(1).lng + 0.01, roadland(1).lat - 0.01], accuracy: 10 };
    const res = await api("POST", "/v1/route/match", {
      json: {
        path: [
          fix(1, 2, 0.1, 0),
          fix(1, 2, 0.8, 0),
          sea,
          far,
          { ...far, coordinates: [roadland(14).lng, roadland(14).lat] },
        ],
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const m = res.body as unknown as Matched;
    expect(m.matchedPath.map((p) => p.originalIndex)).toEqual([0, 1, 3, 4]);
    expect(m.stretches.map((s) => [s.startIndex, s.endIndex])).toEqual([
      [0, 1],
      [3, 4],
    ]);
    expect(m.geometry).toBeUndefined();
  });

  it("refuses bad input with the parameter named", async () => {
    const bad = async (json: unknown, param: string, message?: RegExp) =>
      expectError(await api("POST", "/v1/route/match", { json }), 400, param, message);
    const ok = fix(1, 2, 0.5, 0);
    await bad({}, "path", /required/);
    await bad({ path: [ok] }, "path", /at least 2/);
    await bad({ path: [ok, { coordinates: [2] }] }, "path", /path\[1\]/);
    await bad({ path: [ok, { coordinates: [200, 0] }] }, "path");
    await bad({ path: [ok, "91,0"] }, "path");
    await bad({ path: [ok, { ...ok, accuracy: -1 }] }, "path", /accuracy/);
    await bad({ path: [ok, ok], mode: "transit" }, "mode");
    await bad({ path: [ok, ok], roadAttributes: "colour" }, "roadAttributes", /speedLimit/);
    await bad({ path: [ok, ok], geometry: "svg" }, "geometry");
    const paris = await api("POST", "/v1/route/match", { json: { path: ["48.85,2.35", "48.851,2.351"] } });
    expect(paris.status).toBe(200);
    expect(paris.body).toMatchObject({
      matchedPath: [],
      stretches: [],
      unavailable: "no imported roads there (npm run import)",
    });
  });
});
