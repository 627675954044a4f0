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

  it("measures a polygon as it is now after its shape was changed", async () => {
    const tag = unique("reshaped");
    const square = (from: number, to: number) => [
      [east(from), north(-100)],
      [east(to), north(-100)],
      [east(to), north(100)],
      [east(from), north(100)],
    ];
    await make(tag, "sq", { type: "polygon", coordinates: square(300, 500) });
    const distance = async () =>
      ((await search(`near=${base.lat},${base.lng}&radius=1000&tags=${tag}`)).body.geofences as Hit[]).map(
        (h) => Math.round(h.distance / 10) * 10,
      );
    expect(await distance()).toEqual([300]);
    await api("PUT", `/v1/geofences/${tag}/sq`, {
      json: { description: "sq", type: "polygon", coordinates: square(600, 800) },
    });
    expect(await distance()).toEqual([600]);
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

describe("search geofences where they are dense", () => {
  it("answers the nearest `limit` exactly when the first reach is full, and when it is not", async () => {
    const tag = unique("dense");
    const here = { lat: -47.6, lng: 122.33 };
    const at = metersFrom(here);
    // 120 circles of 30–80 m within 200 m, and 40 more 510–900 m away.
    const shapes: { id: string; distance: number }[] = [];
    const put = async (i: number, dx: number, dy: number, radius: number) => {
      const res = await api("POST", "/v1/geofences", {
        json: {
          description: `d${i}`,
          tag,
          externalId: `d${i}`,
          type: "circle",
          coordinates: [at.east(dx), at.north(dy)],
          radius,
        },
      });
      expect(res.status).toBe(200);
      const d = Math.max(0, Math.hypot(dx, dy) - radius);
      shapes.push({ id: `d${i}`, distance: d });
    };
    let i = 0;
    for (; i < 120; i++) {
      const angle = i * 2.4;
      const r = 20 + ((i * 37) % 180);
      await put(i, Math.cos(angle) * r, Math.sin(angle) * r, 30 + (i % 6) * 10);
    }
    // Outside the second reach's box (straight north, 510–530 m away) yet nearer than ten inside
    // its corner (north-east, 550–586 m): a search that trusted its box would return those.
    for (let k = 0; k < 5; k++, i++) await put(i, 0, 520 + k * 5, 10);
    for (let k = 0; k < 10; k++, i++)
      await put(i, (560 + k * 4) / Math.SQRT2, (560 + k * 4) / Math.SQRT2, 10);
    for (; i < 160; i++) {
      const angle = i * 1.3;
      const r = 700 + ((i * 53) % 200);
      await put(i, Math.cos(angle) * r, Math.sin(angle) * r, 10);
    }
    const expected = (limit: number) =>
      [...shapes]
        .sort((a, b) => a.distance - b.distance)
        .slice(0, limit)
        .map((s) => s.id);
    const found = async (limit: number) => {
      const res = await search(`near=${here.lat},${here.lng}&radius=1000&tags=${tag}&limit=${limit}`);
      expect(res.status).toBe(200);
      return (res.body.geofences as Hit[]).map((g) => g.externalId);
    };
    // The 100 nearest all lie within the first reach; more need the reach widened, once or twice.
    expect(new Set(await found(100))).toEqual(new Set(expected(100)));
    for (const limit of [121, 125, 130, 140, 150]) {
      expect(new Set(await found(limit)), `limit ${limit}`).toEqual(new Set(expected(limit)));
    }
    expect(await found(1000)).toHaveLength(160);
  });
});
