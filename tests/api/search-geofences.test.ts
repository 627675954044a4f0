import { describe, expect, it } from "vitest";
import { api, expectError, unique } from "../support/api";
import { metersFrom } from "../support/geo";

type Hit = Record<string, unknown> & { _id: string; distance: number; externalId: string };

const base = { lat: 47.6, lng: -122.33 };
const { north, east } = metersFrom(base);

async function make(tag: string, externalId: string, shape: Record<string, unknown>) {
  const res = await api("POST", "/v1/geofences", {
    json: { description: externalId, tag, externalId, ...shape },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

const search = (query: string) => api("GET", `/v1/search/geofences?${query}`);

describe("search geofences", () => {
  it("measures distance to the shape, not its center, and sorts nearest first", async () => {
    const tag = unique("near");
    // Circle of 500 m centred 1200 m north: its edge is 700 m away.
    await make(tag, "circle", { type: "circle", coordinates: [base.lng, north(1200)], radius: 500 });
    // A 4 km wide rectangle whose near edge is 300 m east; its center is 2.3 km away.
    await make(tag, "rect", {
      type: "polygon",
      coordinates: [
        [east(300), north(-2000)],
        [east(4300), north(-2000)],
        [east(4300), north(2000)],
        [east(300), north(2000)],
      ],
    });
    // Contains the point: distance 0.
    await make(tag, "around", { type: "circle", coordinates: [east(50), base.lat], radius: 200 });
    // 5 km away: outside every radius below.
    await make(tag, "far", { type: "circle", coordinates: [base.lng, north(-5000)], radius: 100 });

    const res = await search(`near=${base.lat},${base.lng}&radius=1000&tags=${tag}`);
    expect(res.status).toBe(200);
    const hits = res.body.geofences as Hit[];
    expect(hits.map((h) => h.externalId)).toEqual(["around", "rect", "circle"]);
    expect(hits[0]!.distance).toBe(0);
    expect(hits[1]!.distance).toBeGreaterThan(295);
    expect(hits[1]!.distance).toBeLessThan(305);
    expect(hits[2]!.distance).toBeGreaterThan(695);
    expect(hits[2]!.distance).toBeLessThan(705);

    const closer = await search(`near=${base.lat},${base.lng}&radius=500&tags=${tag}`);
    expect((closer.body.geofences as Hit[]).map((h) => h.externalId)).toEqual(["around", "rect"]);
  });

  it("defaults to a 1000 m radius, includes geometry by default and honours includeGeometry=false and limit", async () => {
    const tag = unique("opts");
    for (let i = 0; i < 5; i++) {
      await make(tag, `c${i}`, { type: "circle", coordinates: [base.lng, north(200 * i + 200)], radius: 50 });
    }
    const all = await search(`near=${base.lat},${base.lng}&tags=${tag}`);
    const hits = all.body.geofences as Hit[];
    // c0..c3 have edges within 1000 m (150, 350, 550, 750); c4's edge is at 950.
    expect(hits.map((h) => h.externalId)).toEqual(["c0", "c1", "c2", "c3", "c4"]);
    expect(hits[0]!.geometry).toMatchObject({ type: "Polygon" });

    const trimmed = await search(`near=${base.lat},${base.lng}&tags=${tag}&includeGeometry=false&limit=2`);
    const two = trimmed.body.geofences as Hit[];
    expect(two.map((h) => h.externalId)).toEqual(["c0", "c1"]);
    expect(two[0]!.geometry).toBeUndefined();
    expect(two[0]!.geometryCenter).toBeDefined();
  });

  it("filters by any of several comma-separated tags", async () => {
    const a = unique("ta");
    const b = unique("tb");
    const c = unique("tc");
    await make(a, "a", { type: "circle", coordinates: [base.lng, north(100)], radius: 50 });
    await make(b, "b", { type: "circle", coordinates: [base.lng, north(200)], radius: 50 });
    await make(c, "c", { type: "circle", coordinates: [base.lng, north(300)], radius: 50 });
    const res = await search(`near=${base.lat},${base.lng}&tags=${a},${c}`);
    expect((res.body.geofences as Hit[]).map((h) => h.externalId)).toEqual(["a", "c"]);
  });

  it("finds geofences updated by upsert at their new place only", async () => {
    const tag = unique("moved");
    await api("PUT", `/v1/geofences/${tag}/m`, {
      json: { description: "m", type: "circle", coordinates: [base.lng, base.lat], radius: 50 },
    });
    await api("PUT", `/v1/geofences/${tag}/m`, {
      json: { description: "m", type: "circle", coordinates: [base.lng, north(8000)], radius: 50 },
    });
    expect((await search(`near=${base.lat},${base.lng}&tags=${tag}`)).body.geofences).toEqual([]);
    const there = await search(`near=${north(8000)},${base.lng}&tags=${tag}`);
    expect(there.body.geofences).toHaveLength(1);
  });

  it.each([
    ["", "near", /required/],
    ["near=", "near", /required/],
    ["near=40.7", "near", /latitude>,<longitude|longitude/],
    ["near=40.7,", "near", /longitude is missing/],
    [",-73.9".replace(/^/, "near="), "near", /latitude is missing/],
    ["near=a,b", "near", /not a number/],
    ["near=91,0", "near", /latitude must be between/],
    ["near=0,181", "near", /longitude must be between/],
    ["near=40.7,-73.9&radius=99", "radius", /between 100 and 10000/],
    ["near=40.7,-73.9&radius=10001", "radius", /between 100 and 10000/],
    ["near=40.7,-73.9&radius=wide", "radius", /integer/],
    ["near=40.7,-73.9&limit=0", "limit", /between 1 and 1000/],
    ["near=40.7,-73.9&limit=1001", "limit", /between 1 and 1000/],
    ["near=40.7,-73.9&includeGeometry=maybe", "includeGeometry", /true or false/],
  ])("refuses %s", async (query, param, message) => {
    expectError(await search(query), 400, param, message);
  });
});
