import { describe, expect, it } from "vitest";
import { api, expectError, keys } from "../support/api";

/** Context regions and IP geocoding from the embedded data (docs/data.md): no import needed. */

describe("context regions", () => {
  it("adds the country and US state of a coordinate, at the top level too", async () => {
    const res = await api("GET", "/v1/context?coordinates=40.7831,-73.9712", { key: keys.publishable });
    expect(res.status).toBe(200);
    const context = res.body.context as Record<string, unknown>;
    expect(context.country).toEqual({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      type: "country",
      name: "United States of America",
      code: "US",
    });
    expect(context.state).toEqual({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      type: "state",
      name: "New York",
      code: "NY",
    });
    expect(res.body.country).toEqual(context.country);
    // US postal codes are embedded (the nearest ZIP centroid); DMA data is not: nothing invented.
    expect(context.postalCode).toEqual({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      type: "postalCode",
      name: "10024",
      code: "10024",
    });
    expect(context).not.toHaveProperty("dma");
  });

  it("answers anywhere on Earth, without a state outside the US and without regions at sea", async () => {
    const paris = (await api("GET", "/v1/context?coordinates=48.8566,2.3522")).body.context as Record<
      string,
      unknown
    >;
    expect(paris.country).toMatchObject({ code: "FR", name: "France" });
    expect(paris).not.toHaveProperty("state");
    expect(paris).not.toHaveProperty("postalCode");
    const sea = (await api("GET", "/v1/context?coordinates=30,-40")).body.context as Record<string, unknown>;
    expect(sea).not.toHaveProperty("country");
  });
});

describe("GET /v1/geocode/ip", () => {
  it("gives the country of a public IPv4 and IPv6 address", async () => {
    const v4 = await api("GET", "/v1/geocode/ip?ip=8.8.8.8");
    expect(v4.status).toBe(200);
    expect(v4.body.ip).toBe("8.8.8.8");
    expect(v4.body.proxy).toBe(false);
    const address = v4.body.address as Record<string, unknown>;
    expect(address).toMatchObject({
      country: "United States of America",
      countryCode: "US",
      countryFlag: "🇺🇸",
      layer: "country",
      confidence: "fallback",
    });
    expect((address.timeZone as { id: string }).id).toMatch(/^America\//);
    // A point inside the country stands for it.
    expect(address.latitude as number).toBeGreaterThan(24);
    expect(address.latitude as number).toBeLessThan(50);
    const v6 = await api("GET", "/v1/geocode/ip?ip=2001:4860:4860::8888");
    expect((v6.body.address as { countryCode: string }).countryCode).toBe("US");
    const mapped = await api("GET", "/v1/geocode/ip?ip=::ffff:8.8.8.8");
    expect(mapped.body.ip).toBe("8.8.8.8");
  });

  it.each([
    ["10.1.2.3", 404, /private, loopback or reserved/],
    ["127.0.0.1", 404, /private, loopback or reserved/],
    ["fe80::1", 404, /private, loopback or reserved/],
    ["banana", 400, /not an IP address/],
    ["999.1.1.1", 400, /not an IP address/],
  ])("answers %s clearly", async (ip, status, message) => {
    expectError(await api("GET", `/v1/geocode/ip?ip=${encodeURIComponent(ip)}`), status, "ip", message);
  });

  it("uses the caller's address without `ip`", async () => {
    // Here the caller is this machine: loopback, which has no location.
    expectError(await api("GET", "/v1/geocode/ip"), 404, "ip", /127\.0\.0\.1|::1/);
    // Without TRUST_PROXY, a caller cannot choose its address (tests/api/trust-proxy.test.ts).
    const forged = await api("GET", "/v1/geocode/ip", {
      headers: { "x-forwarded-for": "8.8.8.8, 10.0.0.1" },
    });
    expectError(forged, 404, "ip", /127\.0\.0\.1|::1/);
  });
});

describe("GET /v1/geocode/reverse from the embedded data", () => {
  type Address = Record<string, unknown>;
  const reverse = async (coordinates: string) => {
    const res = await api("GET", `/v1/geocode/reverse?coordinates=${coordinates}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.addresses as Address[];
  };

  it("names the city, state, postal code and country of a US coordinate", async () => {
    const [address, ...more] = await reverse("40.7831,-73.9712");
    expect(more).toEqual([]);
    expect(address).toMatchObject({
      latitude: 40.7831,
      longitude: -73.9712,
      geometry: { type: "Point", coordinates: [-73.9712, 40.7831] },
      country: "United States of America",
      countryCode: "US",
      countryFlag: "🇺🇸",
      state: "New York",
      stateCode: "NY",
      city: "New York City",
      postalCode: "10024",
      formattedAddress: "New York City, NY 10024, US",
      layer: "postalCode",
      confidence: "fallback",
      // Radar's time zone object, from the boundaries shipped with the service.
      timeZone: {
        id: "America/New_York",
        name: expect.stringMatching(/^Eastern (Standard|Daylight) Time$/),
        code: expect.stringMatching(/^E[SD]T$/),
        currentTime: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d-0[45]:00$/),
        utcOffset: expect.any(Number),
        dstOffset: expect.any(Number),
      },
      distance: 0,
    });
    // Without an import there is no street or house number: none is invented.
    expect(address).not.toHaveProperty("street");
    expect(address).not.toHaveProperty("number");
  });

  it("finds cities anywhere, small ones near their centre only, and nothing at sea", async () => {
    expect(await reverse("48.8566,2.3522")).toMatchObject([
      { city: "Paris", countryCode: "FR", layer: "locality", formattedAddress: "Paris, FR" },
    ]);
    expect((await reverse("47.1415,9.5215"))[0]).toMatchObject({ city: "Vaduz", countryCode: "LI" });
    expect((await reverse("35.6812,139.7671"))[0]).toMatchObject({ city: "Tokyo", countryCode: "JP" });
    // Central Nevada: in a state, 25 km from any ZIP centroid, far from any city of 1,000 people.
    const [desert] = await reverse("39,-117.5");
    expect(desert).toMatchObject({ stateCode: "NV", layer: "state" });
    expect(desert).not.toHaveProperty("city");
    expect(await reverse("30,-40")).toEqual([]);
  });

  it.each([
    ["", /required/],
    ["40.7", /latitude.*longitude|<latitude>,<longitude>/],
    ["91,0", /latitude/],
    ["banana,1", /latitude|number/],
  ])("refuses coordinates=%j with a 400 naming the parameter", async (coordinates, message) => {
    expectError(
      await api("GET", `/v1/geocode/reverse?coordinates=${coordinates}`),
      400,
      "coordinates",
      message,
    );
  });
});

describe("regions of tracked users", () => {
  type Ev = { type: string; region?: { type: string; code?: string; name: string } };
  const track = async (deviceId: string, latitude: number, longitude: number) => {
    const res = await api("POST", "/v1/track", {
      key: keys.publishable,
      json: { deviceId, latitude, longitude, accuracy: 20 },
    });
    expect(res.status).toBe(200);
    return res.body as unknown as { user: Record<string, unknown>; events: Ev[] };
  };
  // Other tests' geofences may sit at these places too: only region events count here.
  const regionEvents = (events: Ev[]) => events.filter((e) => e.region);
  const summary = (events: Ev[]) => regionEvents(events).map((e) => `${e.type} ${e.region?.code}`);

  it("carries the country and state on the user and turns changes into region events", async () => {
    const deviceId = `regions-${Math.random()}`;
    const first = await track(deviceId, 40.7831, -73.9712); // Manhattan
    expect(first.user.country).toEqual({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      type: "country",
      name: "United States of America",
      code: "US",
    });
    expect(first.user.state).toEqual({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      type: "state",
      name: "New York",
      code: "NY",
    });
    expect(summary(first.events)).toEqual([
      "user.entered_region_country US",
      "user.entered_region_state NY",
      "user.entered_region_postal_code 10024",
    ]);
    expect(first.user.postalCode).toEqual({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      type: "postalCode",
      name: "10024",
      code: "10024",
    });

    expect(regionEvents((await track(deviceId, 40.7832, -73.9713)).events)).toEqual([]);

    const jersey = await track(deviceId, 40.7282, -74.0776); // Jersey City
    expect(summary(jersey.events)).toEqual([
      "user.exited_region_postal_code 10024",
      "user.exited_region_state NY",
      "user.entered_region_state NJ",
      "user.entered_region_postal_code 07306",
    ]);

    const paris = await track(deviceId, 48.8566, 2.3522);
    expect(summary(paris.events)).toEqual([
      "user.exited_region_postal_code 07306",
      "user.exited_region_state NJ",
      "user.exited_region_country US",
      "user.entered_region_country FR",
    ]);
    expect(paris.user).not.toHaveProperty("state");

    // At sea the user keeps its regions: no flip-flop along a coast.
    const sea = await track(deviceId, 47.5, -5.5);
    expect(regionEvents(sea.events)).toEqual([]);
    expect(sea.user.country).toMatchObject({ code: "FR" });

    // The user's own events (files running beside this one add others meanwhile).
    const listed = (await api("GET", `/v1/events?limit=1000&userId=${sea.user._id as string}`)).body
      .events as (Ev & {
      user: { deviceId: string };
    })[];
    const mine = listed.filter((e) => e.user.deviceId === deviceId && e.region);
    expect(mine).toHaveLength(3 + 4 + 4);
    expect(mine[0]!.region).toEqual({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      type: "country",
      name: "France",
      code: "FR",
    });
  });
});
