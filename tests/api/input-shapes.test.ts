import { describe, expect, it } from "vitest";
import { api, expectError, keys, unique } from "../support/api";

/** Bodies shaped as hostile or unusual clients send them: deep nesting, repeated form keys. */

const deepObject = (n: number) => '{"a":'.repeat(n) + "1" + "}".repeat(n);
const deepArray = (n: number) => "[".repeat(n) + "1" + "]".repeat(n);
const send = (path: string, body: string, key = keys.secret) =>
  api("POST", path, { body, key, headers: { "content-type": "application/json" } });

// The test server takes bodies of up to 256 KiB: 40,000 levels of objects fit.
describe("deeply nested JSON", () => {
  it("is a 400 naming the field, never a 500, and writes nothing", async () => {
    const tag = unique("deep");
    const geofence = (field: string) =>
      `{"description":"d","type":"circle","coordinates":[1,2],"radius":50,"tag":"${tag}","externalId":"1",${field}}`;
    expectError(
      await send("/v1/geofences", geofence(`"metadata":${deepObject(40_000)}`)),
      400,
      "metadata",
      /deeper than 32/,
    );
    expectError(
      await send("/v1/geofences", `{"description":"d","type":"polygon","coordinates":${deepArray(50_000)}}`),
      400,
      "coordinates",
      /deeper than 32/,
    );
    expectError(
      await send(
        "/v1/track",
        `{"deviceId":"${tag}","latitude":1,"longitude":2,"accuracy":5,"metadata":${deepObject(40_000)}}`,
        keys.publishable,
      ),
      400,
      "metadata",
    );
    // The same as JSON text in a form field.
    expectError(
      await api("POST", "/v1/geofences", {
        form: { description: "d", type: "polygon", coordinates: deepArray(20_000) },
      }),
      400,
      "coordinates",
      /deeper than 32/,
    );
    expect((await api("GET", `/v1/geofences?tag=${tag}`)).body.geofences).toEqual([]);
    expectError(await api("GET", `/v1/users/${tag}`), 404);
    // 32 levels is still only a validation question for the field.
    expectError(
      await send("/v1/geofences", geofence(`"metadata":${deepObject(31)}`)),
      400,
      "metadata",
      /values must be/,
    );
  });
});

describe("a key repeated in a form", () => {
  it("carries a circle's center as Radar's Python client sends it", async () => {
    const tag = unique("form");
    const body = new URLSearchParams([
      ["description", "Monaco"],
      ["type", "circle"],
      ["coordinates", "7.42856"],
      ["coordinates", "43.73933"],
      ["radius", "100"],
      ["tag", tag],
      ["externalId", "1"],
    ]).toString();
    const res = await api("POST", "/v1/geofences", {
      body,
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const g = res.body.geofence as { geometryCenter: { coordinates: number[] }; geometryRadius: number };
    expect(g.geometryCenter.coordinates).toEqual([7.42856, 43.73933]);
    expect(g.geometryRadius).toBe(100);
  });

  it("carries a polygon's positions, one per value", async () => {
    const body = new URLSearchParams([
      ["description", "block"],
      ["type", "polygon"],
      ["coordinates", "[7.42, 43.73]"],
      ["coordinates", "[7.43, 43.73]"],
      ["coordinates", "[7.43, 43.74]"],
    ]).toString();
    const res = await api("POST", "/v1/geofences", {
      body,
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const g = res.body.geofence as { geometry: { coordinates: number[][][] } };
    expect(g.geometry.coordinates[0]).toHaveLength(4);
  });

  it("still refuses values that are not numbers, naming the field", async () => {
    const body = new URLSearchParams([
      ["description", "d"],
      ["type", "circle"],
      ["coordinates", "east"],
      ["coordinates", "43.7"],
      ["radius", "100"],
    ]).toString();
    expectError(
      await api("POST", "/v1/geofences", {
        body,
        headers: { "content-type": "application/x-www-form-urlencoded" },
      }),
      400,
      "coordinates",
      /longitude must be a number/,
    );
  });
});
