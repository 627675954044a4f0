import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import { importOsm } from "../../server/imports/osm-import";
import { api, expectError, keys } from "../support/api";
import { TESTLAND, testland } from "../support/osm-fixture";
import { writeOsmPbf } from "../support/osm-pbf";

/**
 * Imported data through the running server: the Testland fixture (tests/support/osm-fixture.ts)
 * is imported into the server's geodata folder while it runs, and must be picked up without a
 * restart. Context, place search, place events and their steering by verifications.
 */

const geodata = inject("geodataDir");
const at = (p: { lng: number; lat: number }) => `${p.lat},${p.lng}`;

type Place = {
  _id: string;
  name: string;
  categories: string[];
  distance?: number;
  chain?: unknown;
  group?: string;
};
type Ev = {
  _id: string;
  type: string;
  place?: Place;
  alternatePlaces?: Place[];
  region?: { code?: string };
  confidence: number;
  duration?: number;
  verifiedPlace?: Place;
};

async function context(p: { lng: number; lat: number }) {
  const res = await api("GET", `/v1/context?coordinates=${at(p)}`, { key: keys.publishable });
  expect(res.status).toBe(200);
  return res.body.context as Record<string, unknown> & { place?: Place };
}

async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

beforeAll(async () => {
  mkdirSync(geodata, { recursive: true });
  const pbf = path.join(mkdtempSync(path.join(tmpdir(), "testland-")), "testland.osm.pbf");
  writeOsmPbf(pbf, testland());
  await importOsm(pbf, { dir: geodata });
  await until(
    () => context(TESTLAND.cafe),
    (c) => !!c.place,
    "the running server to pick up the import",
  );
});

afterAll(() => rmSync(path.join(geodata, "testland.sqlite"), { force: true }));

describe("context from imported data", () => {
  it("names the place and the imported country and postal code, at the top level too", async () => {
    const res = await api("GET", `/v1/context?coordinates=${at(TESTLAND.cafe)}`, { key: keys.publishable });
    const c = res.body.context as Record<string, unknown>;
    expect(c.place).toMatchObject({
      name: "Bean There",
      categories: ["coffee-shop", "food-beverage"],
      chain: { slug: "bean-there", name: "Bean There" },
      location: { type: "Point", coordinates: [TESTLAND.cafe.lng, TESTLAND.cafe.lat] },
    });
    expect(c.country).toEqual({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      type: "country",
      name: "Testland",
      code: "XT",
    });
    expect(c.postalCode).toEqual({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      type: "postalCode",
      name: "10001",
      code: "10001",
    });
    expect(c).not.toHaveProperty("state");
    expect(res.body.place).toEqual(c.place);
  });

  it("takes the smallest area: the state in the north, the postal code in a hole, a shop in a mall", async () => {
    expect((await context(TESTLAND.north)).state).toEqual({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      type: "state",
      name: "Northern",
      code: "NO",
    });
    expect((await context(TESTLAND.hole)).postalCode).toMatchObject({ code: "10002" });
    expect((await context(TESTLAND.shoeShop)).place?.name).toBe("Shoe Hut");
    const mallCorner = { lng: TESTLAND.mall.minLng + 0.0015, lat: TESTLAND.mall.minLat + 0.0002 };
    expect((await context(mallCorner)).place?.name).toBe("Central Mall");
    // Open country: no place is invented.
    expect(await context({ lng: 0.09, lat: 0.01 })).not.toHaveProperty("place");
  });
});

describe("postal codes from imported addresses, where no boundary is mapped", () => {
  const { village1: v1, village2: v2 } = TESTLAND;
  const postcode = async (p: { lng: number; lat: number }) =>
    ((await context(p)).postalCode as { code?: string } | undefined)?.code;

  it("answers the postcode the nearest addresses carry, outvoting a mistagged one", async () => {
    expect(await postcode({ lng: v1.lng + 0.0002, lat: v1.lat + 0.0002 })).toBe("20001");
    // 1.7 km east of the village, in its fields.
    expect(await postcode({ lng: v1.lng + 0.015, lat: v1.lat })).toBe("20001");
    expect(await postcode({ lng: v2.lng - 0.01, lat: v2.lat })).toBe("20002");
    // Farther than 3 km from every address: none is invented.
    expect(await postcode(TESTLAND.north)).toBeUndefined();
    // A mapped boundary still wins over addresses.
    expect(await postcode(TESTLAND.hole)).toBe("10002");
  });

  it("answers it in reverse geocoding and in postal-code events", async () => {
    const res = await api(
      "GET",
      `/v1/geocode/reverse?coordinates=${at({ lng: v1.lng + 0.015, lat: v1.lat })}`,
    );
    expect((res.body.addresses as Record<string, unknown>[])[0]).toMatchObject({
      postalCode: "20001",
      state: "Northern",
      layer: "postalCode",
    });
    const deviceId = `postcode-${Math.random()}`;
    const move = async (p: { lng: number; lat: number }) =>
      (
        (
          await api("POST", "/v1/track", {
            key: keys.publishable,
            json: { deviceId, latitude: p.lat, longitude: p.lng, accuracy: 20 },
          })
        ).body.events as Ev[]
      )
        .filter((e) => e.type.includes("postal_code"))
        .map((e) => `${e.type} ${e.region?.code}`);
    expect(await move(v1)).toEqual(["user.entered_region_postal_code 20001"]);
    expect(await move(v2)).toEqual([
      "user.exited_region_postal_code 20001",
      "user.entered_region_postal_code 20002",
    ]);
  });
});

describe("GET /v1/geocode/reverse from imported data", () => {
  const reverse = async (p: { lng: number; lat: number }) => {
    const res = await api("GET", `/v1/geocode/reverse?coordinates=${at(p)}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return (res.body.addresses as Record<string, unknown>[])[0];
  };

  it("answers the nearest house number, with the imported city, county and country", async () => {
    // 5 m from the cafe, which carries the address 1 Main Street.
    expect(await reverse({ lng: TESTLAND.cafe.lng, lat: TESTLAND.cafe.lat + 0.000045 })).toMatchObject({
      number: "1",
      street: "Main Street",
      addressLabel: "1 Main Street",
      postalCode: "10001",
      city: "Testville",
      county: "Lower County",
      country: "Testland",
      countryCode: "XT",
      placeLabel: "Bean There",
      formattedAddress: "1 Main Street, Testville, 10001, XT",
      layer: "address",
      confidence: "exact",
      latitude: TESTLAND.cafe.lat,
      longitude: TESTLAND.cafe.lng,
      distance: 5,
    });
  });

  it("falls back to the nearest named street, then to the areas", async () => {
    // 400 m east of the addresses, 33 m north of Main Street (which runs along latitude 0.0199).
    const street = await reverse({ lng: 0.024, lat: 0.0202 });
    expect(street).toMatchObject({ street: "Main Street", layer: "street", confidence: "fallback" });
    expect(street).not.toHaveProperty("number");
    expect(street!.latitude).toBeCloseTo(0.0199, 6);
    expect(street!.longitude).toBeCloseTo(0.024, 6);
    expect(street!.distance as number).toBeCloseTo(33.4, 0);
    // Far from every street and outside the city: the postal code is the most precise part.
    const area = await reverse({ lng: TESTLAND.postal.lng, lat: TESTLAND.postal.lat });
    expect(area).toMatchObject({
      postalCode: "10001",
      county: "Lower County",
      layer: "postalCode",
      distance: 0,
    });
    expect(area).not.toHaveProperty("street");
    expect(area).not.toHaveProperty("city");
    expect((await reverse(TESTLAND.north))!.layer).toBe("state");
  });
});

describe("GET /v1/search/places", () => {
  const search = (query: string, key = keys.secret) => api("GET", `/v1/search/places?${query}`, { key });

  it("answers the places near a point, nearest first, with distances", async () => {
    const res = await search(`near=${at(TESTLAND.cafe)}&radius=100`);
    expect(res.status).toBe(200);
    const places = res.body.places as Place[];
    expect(places.map((p) => p.name)).toEqual(["Bean There", "FreshCo"]);
    expect(places[0]!.distance).toBe(0);
    expect(places[1]!.distance).toBeGreaterThan(50);
    expect(places[1]!.distance).toBeLessThan(60);
    expect(places[1]).not.toHaveProperty("chain");
  });

  it("filters by category, chain and group, and limits", async () => {
    const names = async (q: string) => ((await search(q)).body.places as Place[]).map((p) => p.name);
    const near = `near=${at(TESTLAND.cafe)}&radius=10000`;
    expect(await names(`${near}&categories=supermarket,bakery`)).toEqual(["FreshCo"]);
    expect(await names(`${near}&categories=shopping-retail`)).toEqual([
      "FreshCo",
      "Central Mall",
      "Shoe Hut",
    ]);
    expect(await names(`${near}&chains=bean-there`)).toEqual(["Bean There"]);
    expect(await names(`${near}&groups=airports`)).toEqual(["Testland International"]);
    expect(await names(`${near}&groups=airports&categories=coffee-shop`)).toEqual([]);
    expect(await names(`${near}&limit=2`)).toEqual(["Bean There", "FreshCo"]);
    expect(await names(`${near}`)).toHaveLength(6);
  });

  it("sends the places around a device to the SDKs' sync region, as the place object they parse", async () => {
    const res = await api("POST", "/v1/sync/region", {
      key: keys.publishable,
      json: { latitude: TESTLAND.cafe.lat, longitude: TESTLAND.cafe.lng },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const places = res.body.places as (Place & { location: { coordinates: number[] } })[];
    expect(places.map((p) => p.name).slice(0, 2)).toEqual(["Bean There", "FreshCo"]);
    // RadarPlace.fromJson: _id, name, categories, location (a GeoJSON point).
    for (const p of places) {
      expect(p._id).toEqual(expect.any(String));
      expect(p.categories.length).toBeGreaterThan(0);
      expect(p.location.coordinates).toHaveLength(2);
    }
  });

  it("refuses bad input with the parameter named", async () => {
    const near = `near=${at(TESTLAND.cafe)}`;
    expectError(await search(`radius=100`), 400, "near");
    expectError(await search(`near=91,0`), 400, "near");
    expectError(await search(`${near}&radius=99`), 400, "radius");
    expectError(await search(`${near}&radius=10001`), 400, "radius");
    expectError(await search(`${near}&limit=0`), 400, "limit");
    expectError(await search(`${near}&limit=1001`), 400, "limit");
    // Publishable keys may search only when an admin allows it (wire contract).
    expect((await search(near, keys.publishable)).status).toBe(403);
  });
});

describe("place events", () => {
  const track = async (
    deviceId: string,
    p: { lng: number; lat: number },
    extra: Record<string, unknown> = {},
  ) => {
    const res = await api("POST", "/v1/track", {
      key: keys.publishable,
      json: { deviceId, latitude: p.lat, longitude: p.lng, accuracy: 80, ...extra },
    });
    expect(res.status).toBe(200);
    return res.body as unknown as { user: Record<string, unknown> & { place?: Place }; events: Ev[] };
  };
  // 15 m east of the cafe: the cafe is likeliest, the supermarket 40 m away an alternative.
  const spot = { lng: TESTLAND.cafe.lng + 0.000135, lat: TESTLAND.cafe.lat };

  it("enters the place a stopped user is at, with alternatives, and exits with the duration", async () => {
    const deviceId = `places-${Math.random()}`;
    const t0 = Date.now() - 30 * 60_000;
    const moving = await track(deviceId, spot, { stopped: false, updatedAt: new Date(t0).toISOString() });
    expect(moving.events.filter((e) => e.place)).toEqual([]);
    expect(moving.events.map((e) => `${e.type} ${e.region?.code}`)).toEqual([
      "user.entered_region_country XT",
      "user.entered_region_postal_code 10001",
    ]);

    const stopped = await track(deviceId, spot, {
      stopped: true,
      updatedAt: new Date(t0 + 60_000).toISOString(),
    });
    const [entered] = stopped.events;
    expect(entered).toMatchObject({
      type: "user.entered_place",
      place: { name: "Bean There" },
      confidence: 2,
    });
    expect(entered!.alternatePlaces!.map((p) => p.name)).toEqual(["FreshCo"]);
    expect(stopped.user.place?.name).toBe("Bean There");
    // Staying there makes no new event.
    expect(
      (await track(deviceId, spot, { stopped: true, updatedAt: new Date(t0 + 120_000).toISOString() }))
        .events,
    ).toEqual([]);

    const away = { lng: TESTLAND.cafe.lng + 0.004, lat: TESTLAND.cafe.lat };
    const left = await track(deviceId, away, {
      stopped: false,
      updatedAt: new Date(t0 + 16 * 60_000).toISOString(),
    });
    expect(left.events[0]).toMatchObject({
      type: "user.exited_place",
      place: { name: "Bean There" },
      duration: 15,
    });
    expect(left.user).not.toHaveProperty("place");

    const fetched = await api("GET", `/v1/events/${entered!._id}`);
    expect(fetched.body.event).toMatchObject({
      place: { name: "Bean There" },
      alternatePlaces: [{ name: "FreshCo" }],
    });
  });

  it("lets a verification name the right place, which later stops at that spot then get", async () => {
    const first = await track(`steer-${Math.random()}`, spot, { stopped: true });
    const entered = first.events.find((e) => e.type === "user.entered_place")!;
    expect(entered.place!.name).toBe("Bean There");
    const fresh = entered.alternatePlaces![0]!;

    expectError(
      await api("PUT", `/v1/events/${entered._id}/verification`, {
        json: { verification: 1, verifiedPlaceId: "1".padEnd(24, "f") },
      }),
      400,
      "verifiedPlaceId",
      /no imported place/,
    );
    const verified = await api("PUT", `/v1/events/${entered._id}/verification`, {
      json: { verification: 1, verifiedPlaceId: fresh._id },
    });
    expect(verified.status).toBe(200);
    expect((verified.body.event as Ev).verifiedPlace).toMatchObject({ _id: fresh._id, name: "FreshCo" });

    const next = await track(`steer-${Math.random()}`, spot, { stopped: true });
    const again = next.events.find((e) => e.type === "user.entered_place")!;
    expect(again.place!.name).toBe("FreshCo");
    expect(again.alternatePlaces!.map((p) => p.name)).toContain("Bean There");
  });
});

describe("import lifecycle", () => {
  it("stops answering from an import removed while the server runs", async () => {
    const dir = geodata;
    const pbf = path.join(mkdtempSync(path.join(tmpdir(), "gone-")), "gone.osm.pbf");
    writeOsmPbf(pbf, {
      nodes: [{ id: 1, lon: 0.5, lat: 0.5, tags: { amenity: "cafe", name: "Brief Cafe" } }],
      ways: [],
      relations: [],
    });
    await importOsm(pbf, { dir });
    const here = { lng: 0.5, lat: 0.5 };
    await until(
      () => context(here),
      (c) => c.place?.name === "Brief Cafe",
      "the new import",
    );
    rmSync(path.join(dir, "gone.sqlite"));
    await until(
      () => context(here),
      (c) => !c.place,
      "the removed import to be dropped",
    );
  });
});
