import { describe, expect, inject, it } from "vitest";
import { FRESH_ACCOUNTS, FRESH_PASSWORD } from "../../scripts/fresh-server";
import { api, expectError, keys, signIn, unique } from "../support/api";

type Geofence = Record<string, unknown> & { _id: string; createdAt: string; updatedAt: string };

const circle = (extra: Record<string, unknown> = {}) => ({
  description: "Flagship store",
  type: "circle",
  coordinates: [-73.9754, 40.7838],
  radius: 100,
  ...extra,
});

// A 1 km square in Manhattan, as an open ring (the service closes it).
const square = [
  [-73.98, 40.78],
  [-73.968, 40.78],
  [-73.968, 40.789],
  [-73.98, 40.789],
];

async function create(body: Record<string, unknown>, key = keys.secret): Promise<Geofence> {
  const res = await api("POST", "/v1/geofences", { json: body, key });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.geofence as Geofence;
}

describe("create", () => {
  it("creates a circle with every documented field", async () => {
    const tag = unique("store");
    const g = await create(
      circle({ tag, externalId: "1", metadata: { floor: 2, open: true, name: "x" }, dwellThreshold: 10 }),
    );
    expect(g).toMatchObject({
      description: "Flagship store",
      tag,
      externalId: "1",
      type: "circle",
      live: false,
      enabled: true,
      dwellThreshold: 10,
      metadata: { floor: 2, open: true, name: "x" },
      geometryCenter: { type: "Point", coordinates: [-73.9754, 40.7838] },
      geometryRadius: 100,
    });
    expect(g._id).toMatch(/^[0-9a-f]{24}$/);
    expect(g.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const geometry = g.geometry as { type: string; coordinates: number[][][] };
    expect(geometry.type).toBe("Polygon");
    const ring = geometry.coordinates[0]!;
    expect(ring.length).toBeGreaterThan(16);
    expect(ring[0]).toEqual(ring[ring.length - 1]);
  });

  it("creates a polygon, closing an open ring and computing center and radius", async () => {
    const g = await create({ description: "Block", type: "polygon", coordinates: square, enabled: false });
    const ring = (g.geometry as { coordinates: number[][][] }).coordinates[0]!;
    expect(ring).toHaveLength(5);
    expect(ring[4]).toEqual(square[0]);
    expect(g.enabled).toBe(false);
    const center = (g.geometryCenter as { coordinates: number[] }).coordinates;
    expect(center[0]).toBeCloseTo(-73.974, 4);
    expect(center[1]).toBeCloseTo(40.7845, 4);
    // Half the diagonal of a ~1.0 km x 1.0 km square.
    expect(g.geometryRadius as number).toBeGreaterThan(650);
    expect(g.geometryRadius as number).toBeLessThan(800);
  });

  it("accepts GeoJSON polygon coordinates (one ring inside an array)", async () => {
    const g = await create({ description: "Nested", type: "polygon", coordinates: [[...square, square[0]]] });
    expect((g.geometry as { coordinates: number[][][] }).coordinates[0]).toHaveLength(5);
  });

  it("accepts a form body with structures as JSON text, as Radar's curl examples send", async () => {
    const tag = unique("venue");
    const res = await api("POST", "/v1/geofences", {
      form: {
        description: "Monk's Café",
        tag,
        externalId: "2",
        type: "circle",
        coordinates: "[-73.975363, 40.783826]",
        radius: "50",
        metadata: '{"chain":"monks"}',
        enabled: "true",
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.geofence).toMatchObject({
      description: "Monk's Café",
      geometryRadius: 50,
      metadata: { chain: "monks" },
    });
  });

  it("accepts coordinates as a JSON string inside a JSON body", async () => {
    const g = await create(circle({ coordinates: "[-73.9754, 40.7838]" }));
    expect(g.geometryCenter).toEqual({ type: "Point", coordinates: [-73.9754, 40.7838] });
  });

  it("refuses a second geofence with the same tag and externalId with 409", async () => {
    const tag = unique("dup");
    const first = await create(circle({ tag, externalId: "a", description: "First" }));
    const res = await api("POST", "/v1/geofences", { json: circle({ tag, externalId: "a" }) });
    // The message names the geofence that has them, so a person can go and look at it.
    expectError(res, 409, "externalId", new RegExp(`already used by geofence ${first._id} \\("First"\\)`));
    expect((await api("GET", `/v1/geofences/${first._id}`)).body.geofence).toEqual(first);
  });

  it("gives exactly one 200 among concurrent creates of the same tag and externalId", async () => {
    const tag = unique("race");
    const results = await Promise.all(
      Array.from({ length: 12 }, () =>
        api("POST", "/v1/geofences", { json: circle({ tag, externalId: "same" }) }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(11);
    const list = await api("GET", `/v1/geofences?tag=${tag}`);
    expect(list.body.geofences).toHaveLength(1);
  });

  it("keeps test and live data apart", async () => {
    const tag = unique("world");
    const g = await create(circle({ tag, externalId: "x" }), keys.live);
    expect(g.live).toBe(true);
    expectError(await api("GET", `/v1/geofences/${g._id}`), 404);
    expect((await api("GET", `/v1/geofences/${g._id}`, { key: keys.live })).status).toBe(200);
    // The same pair may exist once in each world.
    const test = await create(circle({ tag, externalId: "x" }));
    expect(test.live).toBe(false);
  });
});

describe("create: bad input never writes", () => {
  const tag = unique("bad");
  const ring = (n: number) =>
    Array.from({ length: n }, (_, i) => {
      const a = (2 * Math.PI * i) / n;
      return [-73.97 + 0.01 * Math.cos(a), 40.78 + 0.01 * Math.sin(a)];
    });
  const cases: [string, Record<string, unknown>, number, string, RegExp?][] = [
    ["missing description", { ...circle(), description: undefined }, 400, "description", /required/],
    ["blank description", circle({ description: "  " }), 400, "description", /required/],
    ["missing type", { ...circle(), type: undefined }, 400, "type", /required/],
    ["unknown type", circle({ type: "square" }), 400, "type", /circle, polygon or isochrone/],
    ["missing coordinates", { ...circle(), coordinates: undefined }, 400, "coordinates", /required/],
    ["coordinates that are not JSON", circle({ coordinates: "[1, 2" }), 400, "coordinates", /JSON/],
    ["circle without radius", { ...circle(), radius: undefined }, 400, "radius", /required/],
    ["circle radius below 10", circle({ radius: 5 }), 400, "radius", /between 10 and 10000/],
    ["circle radius above 10000", circle({ radius: 10001 }), 400, "radius", /between 10 and 10000/],
    ["circle radius not a number", circle({ radius: "big" }), 400, "radius", /number/],
    [
      "circle center longitude out of range",
      circle({ coordinates: [200, 40] }),
      400,
      "coordinates",
      /longitude/,
    ],
    [
      "circle center latitude out of range",
      circle({ coordinates: [-73, 91] }),
      400,
      "coordinates",
      /latitude/,
    ],
    ["circle center not a pair", circle({ coordinates: [1] }), 400, "coordinates", /longitude, latitude/],
    [
      "polygon with 3 positions",
      { description: "p", type: "polygon", coordinates: ring(2) },
      400,
      "coordinates",
      /4 to 2000/,
    ],
    [
      "polygon with 2001 positions",
      { description: "p", type: "polygon", coordinates: ring(2001) },
      400,
      "coordinates",
      /4 to 2000/,
    ],
    [
      "self-intersecting polygon",
      {
        description: "p",
        type: "polygon",
        coordinates: [
          [-73.98, 40.78],
          [-73.97, 40.79],
          [-73.97, 40.78],
          [-73.98, 40.79],
        ],
      },
      400,
      "coordinates",
      /intersects itself/,
    ],
    [
      "polygon with a position out of range",
      {
        description: "p",
        type: "polygon",
        coordinates: [
          [-73.98, 40.78],
          [-73.97, 95],
          [-73.97, 40.79],
          [-73.98, 40.79],
        ],
      },
      400,
      "coordinates",
      /coordinates\[1\].*latitude/,
    ],
    [
      "polygon with no area",
      {
        description: "p",
        type: "polygon",
        coordinates: [
          [-73.98, 40.78],
          [-73.97, 40.78],
          [-73.96, 40.78],
          [-73.98, 40.78],
        ],
      },
      400,
      "coordinates",
    ],
    [
      "polygon with holes",
      { description: "p", type: "polygon", coordinates: [square, square] },
      400,
      "coordinates",
      /holes/,
    ],
    [
      "metadata with 17 keys",
      circle({ metadata: Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, i])) }),
      400,
      "metadata",
      /16 keys/,
    ],
    [
      "metadata with a nested object",
      circle({ metadata: { a: { b: 1 } } }),
      400,
      "metadata",
      /strings, numbers or booleans/,
    ],
    ["metadata that is an array", circle({ metadata: [1, 2] }), 400, "metadata"],
    ["enabled that is not a boolean", circle({ enabled: "maybe" }), 400, "enabled", /true or false/],
    ["dwellThreshold of 0", circle({ dwellThreshold: 0 }), 400, "dwellThreshold"],
    ["tag longer than 256", circle({ tag: "t".repeat(257) }), 400, "tag", /256/],
    ["description that is a number", circle({ description: 42 }), 400, "description", /string/],
  ];

  it.each(cases)("%s", async (_name, body, status, param, message) => {
    const res = await api("POST", "/v1/geofences", {
      json: { ...body, tag: body.tag ?? tag, externalId: unique("x") },
    });
    expectError(res, status, param, message);
  });

  it.each([
    ["malformed JSON", '{"description":', "application/json", 400, "body", /JSON/],
    ["a JSON array", "[1,2]", "application/json", 400, "body", /object/],
    ["an unsupported content type", "<xml/>", "application/xml", 400, "body", /content type/],
  ])("%s", async (_name, body, type, status, param, message) => {
    expectError(
      await api("POST", "/v1/geofences", { body, headers: { "content-type": type } }),
      status,
      param,
      message,
    );
  });

  it("answers 413 to a body over the size limit", async () => {
    const big = circle({ tag, description: "x".repeat(300 * 1024) });
    expectError(await api("POST", "/v1/geofences", { json: big }), 413, "body", /larger than/);
  });

  it("left nothing behind", async () => {
    const res = await api("GET", `/v1/geofences?tag=${tag}`);
    expect(res.body.geofences).toEqual([]);
  });
});

describe("keys", () => {
  it.each([
    ["no key", null, 401],
    ["a malformed key", "hello", 401],
    ["an unknown key", `prj_test_sk_${"0".repeat(40)}`, 401],
    ["a revoked key", keys.revoked, 401],
    ["a publishable key", keys.publishable, 403],
  ])("refuses %s on geofence endpoints", async (_name, key, status) => {
    for (const [method, path] of [
      ["GET", "/v1/geofences"],
      ["POST", "/v1/geofences"],
      ["GET", "/v1/search/geofences?near=40.78,-73.97"],
      ["DELETE", "/v1/geofences/000000000000000000000000"],
    ] as const) {
      const res = await api(method, path, { key, json: method === "POST" ? circle() : undefined });
      expectError(res, status);
    }
  });

  it("accepts 'Bearer <key>' as well as the raw key", async () => {
    const res = await api("GET", "/v1/geofences?limit=1", { key: `Bearer ${keys.secret}` });
    expect(res.status).toBe(200);
  });

  it("lets publishable keys search geofences only while an admin allows it", async () => {
    const admin = { key: null, headers: { cookie: await signIn(FRESH_ACCOUNTS.admin, FRESH_PASSWORD) } };
    // (This test owns the setting: other files never call these routes with a publishable key.)
    const search = () => api("GET", "/v1/search/geofences?near=40.78,-73.97", { key: keys.publishable });
    const geocode = () => api("GET", "/v1/geocode/ip?ip=8.8.8.8", { key: keys.publishable });
    expectError(await search(), 403, undefined, /an admin can allow publishable keys/);
    expectError(await geocode(), 403);
    expect((await api("GET", "/api/settings", admin)).body.settings).toEqual({
      publishableSearch: false,
      publishableGeofenceSync: true,
    });
    try {
      const on = await api("PATCH", "/api/settings", { ...admin, json: { publishableSearch: true } });
      expect(on.body.settings).toEqual({ publishableSearch: true, publishableGeofenceSync: true });
      expect((await search()).status).toBe(200);
      expect((await geocode()).status).toBe(200);
      // Never users, whatever the setting.
      expectError(await api("GET", "/v1/search/users?near=40.78,-73.97", { key: keys.publishable }), 403);
    } finally {
      await api("PATCH", "/api/settings", { ...admin, json: { publishableSearch: false } });
    }
    expectError(await search(), 403);
    const reviewer = {
      key: null,
      headers: { cookie: await signIn(FRESH_ACCOUNTS.reviewer, FRESH_PASSWORD) },
    };
    expectError(await api("PATCH", "/api/settings", { ...reviewer, json: { publishableSearch: true } }), 403);
  });

  it("lets the publishable key call /v1/config", async () => {
    // (What the answer holds is ./sdk-config.test.ts's: it sets the settings files running beside
    // this one would see.)
    const res = await api("GET", "/v1/config", { key: keys.publishable });
    expect(res.status).toBe(200);
    expect(res.body.meta.code).toBe(200);
  });
});

describe("get, upsert and delete", () => {
  it("gets by id and by tag/externalId", async () => {
    const tag = unique("get");
    const g = await create(circle({ tag, externalId: "e1" }));
    const byId = await api("GET", `/v1/geofences/${g._id}`);
    expect(byId.body.geofence).toEqual(g);
    const byTag = await api("GET", `/v1/geofences/${tag}/e1`);
    expect(byTag.body.geofence).toEqual(g);
  });

  it("answers 404 for unknown ids and pairs", async () => {
    expectError(await api("GET", "/v1/geofences/000000000000000000000000"), 404, undefined, /not found/);
    expectError(await api("GET", `/v1/geofences/${unique("t")}/nope`), 404, undefined, /not found/);
    expectError(await api("DELETE", "/v1/geofences/000000000000000000000000"), 404);
    expectError(await api("DELETE", `/v1/geofences/${unique("t")}/nope`), 404);
  });

  it("upsert creates, then replaces the same geofence keeping _id and createdAt", async () => {
    const tag = unique("up");
    const first = await api("PUT", `/v1/geofences/${tag}/store-9`, { json: circle({ metadata: { v: 1 } }) });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const a = first.body.geofence as Geofence;
    expect(a).toMatchObject({ tag, externalId: "store-9", metadata: { v: 1 } });

    const second = await api("PUT", `/v1/geofences/${tag}/store-9`, {
      json: { description: "Moved", type: "polygon", coordinates: square },
    });
    const b = second.body.geofence as Geofence;
    expect(b._id).toBe(a._id);
    expect(b.createdAt).toBe(a.createdAt);
    expect(b.updatedAt > a.updatedAt).toBe(true);
    expect(b).toMatchObject({ description: "Moved", type: "polygon" });
    expect(b.metadata).toBeUndefined();
    const list = await api("GET", `/v1/geofences?tag=${tag}`);
    expect(list.body.geofences).toHaveLength(1);
  });

  it("upsert validates like create and writes nothing on bad input", async () => {
    const tag = unique("upbad");
    expectError(
      await api("PUT", `/v1/geofences/${tag}/x`, {
        json: { type: "circle", coordinates: [0, 0], radius: 50 },
      }),
      400,
      "description",
    );
    expectError(
      await api("PUT", `/v1/geofences/${tag}/x`, {
        json: { description: "d", coordinates: [0, 0], radius: 50 },
      }),
      400,
      "type",
    );
    expectError(
      await api("PUT", `/v1/geofences/${tag}/x`, { json: { description: "d", type: "circle" } }),
      400,
      "coordinates",
    );
    expectError(await api("GET", `/v1/geofences/${tag}/x`), 404);
  });

  it("holds the tag and externalId in the path to the body's rules", async () => {
    const long = "x".repeat(257);
    expectError(await api("PUT", `/v1/geofences/${long}/a`, { json: circle() }), 400, "tag", /256/);
    expectError(await api("PUT", `/v1/geofences/t/${long}`, { json: circle() }), 400, "externalId", /256/);
  });

  it("takes tag and externalId from the path over the body, decoded", async () => {
    const tag = unique("path tag");
    const res = await api("PUT", `/v1/geofences/${encodeURIComponent(tag)}/a%20b`, {
      json: circle({ tag: "ignored", externalId: "ignored" }),
    });
    expect(res.body.geofence).toMatchObject({ tag, externalId: "a b" });
    expect((await api("GET", `/v1/geofences/${encodeURIComponent(tag)}/a%20b`)).status).toBe(200);
  });

  it("concurrent first upserts of one pair leave one geofence", async () => {
    const tag = unique("uprace");
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        api("PUT", `/v1/geofences/${tag}/one`, { json: circle({ description: `v${i}` }) }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(new Set(results.map((r) => (r.body.geofence as Geofence)._id)).size).toBe(1);
    expect((await api("GET", `/v1/geofences?tag=${tag}`)).body.geofences).toHaveLength(1);
  });

  it("deletes by id and by tag/externalId", async () => {
    const tag = unique("del");
    const a = await create(circle({ tag, externalId: "a" }));
    await create(circle({ tag, externalId: "b" }));
    const delA = await api("DELETE", `/v1/geofences/${a._id}`);
    expect(delA.body).toEqual({ meta: { code: 200 } });
    expectError(await api("GET", `/v1/geofences/${a._id}`), 404);
    expect((await api("DELETE", `/v1/geofences/${tag}/b`)).status).toBe(200);
    expectError(await api("GET", `/v1/geofences/${tag}/b`), 404);
    // Deleted geofences leave the spatial index too.
    const search = await api("GET", `/v1/search/geofences?near=40.7838,-73.9754&tags=${tag}`);
    expect(search.body.geofences).toEqual([]);
  });
});

describe("update by _id (PATCH)", () => {
  const full = (tag: string, externalId: string) =>
    circle({
      tag,
      externalId,
      metadata: { floor: 3 },
      dwellThreshold: 30,
      enabled: false,
    });

  it("changes the fields sent and keeps every other one", async () => {
    const tag = unique("patch");
    const g = await create(full(tag, "a"));
    const res = await api("PATCH", `/v1/geofences/${g._id}`, { json: { description: "Renamed" } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const after = res.body.geofence as Geofence;
    expect(after).toMatchObject({
      _id: g._id,
      createdAt: g.createdAt,
      description: "Renamed",
      tag,
      externalId: "a",
      type: "circle",
      geometryRadius: 100,
      metadata: { floor: 3 },
      dwellThreshold: 30,
      enabled: false,
    });
    expect(after.updatedAt > g.updatedAt).toBe(true);
    expect((await api("GET", `/v1/geofences/${g._id}`)).body.geofence).toEqual(after);
  });

  it("changes the shape, clears optional fields with null, and takes a form body", async () => {
    const tag = unique("patch");
    const g = await create(full(tag, "a"));
    const res = await api("PATCH", `/v1/geofences/${g._id}`, {
      json: { type: "polygon", coordinates: square, metadata: null, dwellThreshold: null },
    });
    expect(res.body.geofence).toMatchObject({ type: "polygon", description: "Flagship store", tag });
    expect(res.body.geofence).not.toHaveProperty("metadata");
    expect(res.body.geofence).not.toHaveProperty("dwellThreshold");
    const radius = await api("PATCH", `/v1/geofences/${g._id}`, {
      form: { type: "circle", coordinates: "[-73.97, 40.78]", radius: "250" },
    });
    expect(radius.body.geofence).toMatchObject({ type: "circle", geometryRadius: 250 });
  });

  it("refuses an identity another geofence has, and changes neither", async () => {
    const tag = unique("patch");
    const a = await create(full(tag, "a"));
    const b = await create(circle({ tag, externalId: "b", description: "Other" }));
    const res = await api("PATCH", `/v1/geofences/${b._id}`, { json: { externalId: "a" } });
    expectError(
      res,
      409,
      "externalId",
      new RegExp(`already used by geofence ${a._id} \\("Flagship store"\\)`),
    );
    expect((await api("GET", `/v1/geofences/${a._id}`)).body.geofence).toEqual(a);
    expect((await api("GET", `/v1/geofences/${b._id}`)).body.geofence).toEqual(b);
  });

  it("validates the result like a create and writes nothing on bad input", async () => {
    const g = await create(full(unique("patch"), "a"));
    expectError(await api("PATCH", `/v1/geofences/${g._id}`, { json: { radius: 5 } }), 400, "radius");
    expectError(
      await api("PATCH", `/v1/geofences/${g._id}`, { json: { description: "" } }),
      400,
      "description",
    );
    expectError(
      await api("PATCH", `/v1/geofences/${g._id}`, { json: { type: "polygon" } }),
      400,
      "coordinates",
      /required to change the type/,
    );
    expectError(
      await api("PATCH", `/v1/geofences/${g._id}`, { json: { dwellThreshold: 0 } }),
      400,
      "dwellThreshold",
    );
    expect((await api("GET", `/v1/geofences/${g._id}`)).body.geofence).toEqual(g);
    expectError(await api("PATCH", "/v1/geofences/000000000000000000000000", { json: {} }), 404);
  });

  it("with If-Match, refuses to overwrite a change made since (412)", async () => {
    const g = await create(full(unique("patch"), "a"));
    const first = await api("PATCH", `/v1/geofences/${g._id}`, {
      json: { description: "First" },
      headers: { "if-match": `"${g.updatedAt}"` },
    });
    expect(first.status).toBe(200);
    const stale = await api("PATCH", `/v1/geofences/${g._id}`, {
      json: { description: "Second" },
      headers: { "if-match": `"${g.updatedAt}"` },
    });
    expectError(stale, 412, undefined, /changed at .* after the version you edited/);
    expect((await api("GET", `/v1/geofences/${g._id}`)).body.geofence).toMatchObject({
      description: "First",
    });
    expectError(
      await api("PATCH", `/v1/geofences/${g._id}`, { json: {}, headers: { "if-match": "yesterday" } }),
      400,
      "If-Match",
    );
  });

  it("applies patches sent at once without If-Match each to the version before it (none lost)", async () => {
    const g = await create(full(unique("patch"), "together"));
    // Each patch changes one field of its own; sent together, every one must land.
    const patches = [
      { description: "Renamed" },
      { radius: 250 },
      { dwellThreshold: 45 },
      { enabled: true },
      { metadata: { floor: 7 } },
      { coordinates: [-73.97, 40.78] },
    ];
    const answers = await Promise.all(
      patches.map((json) => api("PATCH", `/v1/geofences/${g._id}`, { json })),
    );
    expect(answers.map((a) => a.status)).toEqual(patches.map(() => 200));
    expect((await api("GET", `/v1/geofences/${g._id}`)).body.geofence).toMatchObject({
      description: "Renamed",
      geometryRadius: 250,
      dwellThreshold: 45,
      enabled: true,
      metadata: { floor: 7 },
      geometryCenter: { coordinates: [-73.97, 40.78] },
    });
  });

  it("takes users out of a geofence whose new shape no longer holds them", async () => {
    const g = await create(circle({ tag: unique("patch"), externalId: "m" }));
    const deviceId = unique("dev");
    await api("POST", "/v1/track", {
      key: keys.publishable,
      json: { deviceId, latitude: 40.7838, longitude: -73.9754, accuracy: 5 },
    });
    expect((await api("GET", `/v1/geofences/${g._id}/users`)).body.users).toHaveLength(1);
    // Moved to the open Atlantic, where no other test tracks.
    await api("PATCH", `/v1/geofences/${g._id}`, { json: { coordinates: [-40.123, 30.456] } });
    expect((await api("GET", `/v1/geofences/${g._id}/users`)).body.users).toHaveLength(0);
  });
});

describe("list", () => {
  it("pages newest first through every geofence of a tag without skips or repeats", async () => {
    const tag = unique("page");
    const made: Geofence[] = [];
    for (let i = 0; i < 7; i++) made.push(await create(circle({ tag, externalId: String(i) })));
    const seen: string[] = [];
    let cursor: string | undefined;
    for (;;) {
      const res = await api(
        "GET",
        `/v1/geofences?tag=${tag}&limit=3${cursor ? `&createdBefore=${cursor}` : ""}`,
      );
      const page = res.body.geofences as Geofence[];
      seen.push(...page.map((g) => g._id));
      if (!res.body.meta.hasMore) break;
      expect(page).toHaveLength(3);
      cursor = page[page.length - 1]!.createdAt;
    }
    expect(seen).toEqual(made.map((g) => g._id).reverse());
  });

  it("filters with createdAfter and createdBefore in every accepted datetime format", async () => {
    const tag = unique("window");
    const made: Geofence[] = [];
    for (let i = 0; i < 4; i++) made.push(await create(circle({ tag, externalId: String(i) })));
    const t1 = new Date(made[1]!.createdAt);
    const t3 = new Date(made[3]!.createdAt);
    const iso = (d: Date) => d.toISOString();
    const formats = [
      [iso(t1), iso(t3)],
      [String(t1.getTime()), String(t3.getTime())],
      // No zone means UTC.
      [iso(t1).replace("Z", ""), iso(t3).replace("Z", "")],
      [iso(t1).replace("Z", "+00:00"), iso(t3).replace("Z", "+00:00")],
    ];
    for (const [after, before] of formats) {
      const res = await api(
        "GET",
        `/v1/geofences?tag=${tag}&createdAfter=${encodeURIComponent(after!)}&createdBefore=${encodeURIComponent(before!)}`,
      );
      expect(
        (res.body.geofences as Geofence[]).map((g) => g._id),
        `${after} .. ${before}`,
      ).toEqual([made[2]!._id]);
    }
    const spaced = await api(
      "GET",
      `/v1/geofences?tag=${tag}&createdBefore=${encodeURIComponent("2000-01-01 00:00:00")}`,
    );
    expect(spaced.body.geofences).toEqual([]);
  });

  it.each([
    ["limit=0", "limit", /between 1 and 1000/],
    ["limit=1001", "limit", /between 1 and 1000/],
    ["limit=abc", "limit", /integer/],
    ["limit=2.5", "limit", /integer/],
    ["createdBefore=yesterday", "createdBefore", /ISO 8601/],
    ["createdAfter=2026-13-01", "createdAfter", /ISO 8601/],
    ["createdAfter=2026-02-30T00:00:00Z", "createdAfter", /ISO 8601/],
  ])("refuses %s", async (query, param, message) => {
    expectError(await api("GET", `/v1/geofences?${query}`), 400, param, message);
  });
});

describe("unknown routes", () => {
  it("answer 404 in the JSON envelope", async () => {
    expectError(await api("GET", "/v1/no/such/thing"), 404, undefined, /no such endpoint/);
  });

  it.each([
    ["POST", "/v1/context?coordinates=1,1", "GET, OPTIONS", /POST \/v1\/context is not supported; use GET/],
    ["GET", "/v1/track", "POST, OPTIONS", /use POST/],
    ["PATCH", "/v1/geofences", "GET, POST, OPTIONS", /use GET or POST/],
    ["POST", "/v1/events/abc/verification", "PUT, OPTIONS", /use PUT/],
    ["PUT", "/api/keys", "GET, POST, OPTIONS", /use GET or POST/],
  ])(
    "answer a method a route does not have (%s %s) with a 405 in the envelope",
    async (method, path, allow, message) => {
      const res = await api(method, path, { json: method === "GET" ? undefined : {} });
      expectError(res, 405, undefined, message);
      expect(res.headers.get("allow")).toBe(allow);
    },
  );

  it("answer CORS preflight with the headers Radar SDKs send", async () => {
    const res = await fetch(`${inject("baseUrl")}/v1/geofences`, {
      method: "OPTIONS",
      headers: {
        origin: "https://app.example",
        "access-control-request-method": "POST",
        "access-control-request-headers": "authorization, content-type, x-radar-device-type",
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-methods")).toContain("DELETE");
    expect(res.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("x-radar-device-type");
  });
});

describe("list by map view", () => {
  it("lists the geofences whose box meets the view, across the antimeridian too", async () => {
    const make = async (lng: number, lat: number) => {
      const res = await api("POST", "/v1/geofences", {
        json: { description: unique("view"), type: "circle", coordinates: [lng, lat], radius: 200 },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return (res.body.geofence as { _id: string })._id;
    };
    const a = await make(100, -55);
    const b = await make(100.5, -55);
    const c = await make(-179.5, -56);
    const listed = async (bounds: string) => {
      const res = await api("GET", `/v1/geofences?limit=1000&bounds=${encodeURIComponent(bounds)}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return (res.body.geofences as { _id: string }[])
        .map((g) => g._id)
        .filter((id) => [a, b, c].includes(id));
    };
    expect(await listed("-55.1,99.9|-54.9,100.1")).toEqual([a]);
    expect((await listed("-55.1,99.9|-54.9,100.6")).sort()).toEqual([a, b].sort());
    expect(await listed("-56.1,179|-55.9,-179")).toEqual([c]); // west above east: across 180°
    expect(await listed("-10,0|10,10")).toEqual([]);
    expectError(await api("GET", "/v1/geofences?bounds=-55,100"), 400, "bounds", /south lat/);
    expectError(await api("GET", "/v1/geofences?bounds=-54,99|-55,100"), 400, "bounds", /north of/);
    expectError(await api("GET", "/v1/geofences?bounds=-55,100|-54,200"), 400, "bounds", /longitude/);
  });

  it("finds geofences by words of their description, tag or external ID, in any case", async () => {
    const word = unique("Harbour").toUpperCase();
    const put = async (tag: string, externalId: string, description: string) => {
      const res = await api("PUT", `/v1/geofences/${tag}/${externalId}`, {
        json: { description, type: "circle", coordinates: [101, -55], radius: 200 },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return (res.body.geofence as { _id: string })._id;
    };
    const byDescription = await put(unique("t"), "a", `North ${word} gate`);
    const byTag = await put(`${word}-tag`, "b", "Somewhere");
    const byExternalId = await put(unique("t"), `x-${word}`, "Elsewhere");
    await put(unique("t"), "c", "Nothing to see");
    const found = async (query: string) => {
      const res = await api("GET", `/v1/geofences?limit=1000&${query}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return (res.body.geofences as { _id: string }[]).map((g) => g._id).sort();
    };
    expect(await found(`search=${word.toLowerCase()}`)).toEqual([byDescription, byTag, byExternalId].sort());
    expect(await found(`search=${word}&bounds=-55.1,100.9|-54.9,101.1`)).toEqual(
      [byDescription, byTag, byExternalId].sort(),
    );
    expect(await found(`search=${word}&bounds=-10,0|10,10`)).toEqual([]);
    expectError(await api("GET", `/v1/geofences?search=${"x".repeat(101)}`), 400, "search");
  });
});
