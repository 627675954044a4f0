import { describe, expect, it } from "vitest";
import { api, expectError, keys } from "../support/api";

/** Context regions and IP geocoding from the embedded data (docs/data.md): no import needed. */

describe("context regions", () => {
  it("adds the country and US state of a coordinate, at the top level too", async () => {
    const res = await api("GET", "/v1/context?coordinates=40.7831,-73.9712", { key: keys.publishable });
    expect(res.status).toBe(200);
    const context = res.body.context as Record<string, unknown>;
    expect(context.country).toEqual({ type: "country", name: "United States of America", code: "US" });
    expect(context.state).toEqual({ type: "state", name: "New York", code: "NY" });
    expect(res.body.country).toEqual(context.country);
    // US postal codes are embedded (the nearest ZIP centroid); DMA data is not: nothing invented.
    expect(context.postalCode).toEqual({ type: "postalCode", name: "10024", code: "10024" });
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
    const proxied = await api("GET", "/v1/geocode/ip", {
      headers: { "x-forwarded-for": "8.8.8.8, 10.0.0.1" },
    });
    expect(proxied.body.ip).toBe("8.8.8.8");
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
    expect(first.user.country).toEqual({ type: "country", name: "United States of America", code: "US" });
    expect(first.user.state).toEqual({ type: "state", name: "New York", code: "NY" });
    expect(summary(first.events)).toEqual([
      "user.entered_region_country US",
      "user.entered_region_state NY",
      "user.entered_region_postal_code 10024",
    ]);
    expect(first.user.postalCode).toEqual({ type: "postalCode", name: "10024", code: "10024" });

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

    const listed = (await api("GET", "/v1/events?limit=1000")).body.events as (Ev & {
      user: { deviceId: string };
    })[];
    const mine = listed.filter((e) => e.user.deviceId === deviceId && e.region);
    expect(mine).toHaveLength(3 + 4 + 4);
    expect(mine[0]!.region).toEqual({ type: "country", name: "France", code: "FR" });
  });
});
