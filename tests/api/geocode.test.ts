import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { connect } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { FRESH_ACCOUNTS, FRESH_PASSWORD } from "../../scripts/fresh-server";
import { importOsm } from "../../server/imports/osm-import";
import { api, expectError, keys, signIn } from "../support/api";
import { GEOLAND, geoland } from "../support/geocode-fixture";
import { writeOsmPbf } from "../support/osm-pbf";

/**
 * Forward geocoding and autocomplete through the running server, on Geoland
 * (tests/support/geocode-fixture.ts) imported while it runs: the wire form, the parameters,
 * every error, and the dashboard's session calling autocomplete.
 */

const baseUrl = inject("baseUrl");
const geodata = inject("geodataDir");
const at = (p: { lng: number; lat: number }) => `${p.lat},${p.lng}`;
const q = (params: Record<string, string>) => new URLSearchParams(params).toString();
type Address = Record<string, unknown> & { layer: string; confidence: string; distance?: number };

async function forward(params: Record<string, string>) {
  const res = await api("GET", `/v1/geocode/forward?${q(params)}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.addresses as Address[];
}

async function autocomplete(params: Record<string, string>) {
  const res = await api("GET", `/v1/search/autocomplete?${q(params)}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.addresses as Address[];
}

beforeAll(async () => {
  mkdirSync(geodata, { recursive: true });
  const pbf = path.join(mkdtempSync(path.join(tmpdir(), "geoland-")), "geoland.osm.pbf");
  writeOsmPbf(pbf, geoland());
  await importOsm(pbf, { dir: geodata });
  // The running server picks the import up within a second.
  const deadline = Date.now() + 5000;
  while ((await forward({ query: "Hauptstrasse 3 Neustadt" }))[0]?.layer !== "address") {
    if (Date.now() > deadline) throw new Error("the server did not pick up the import");
    await new Promise((r) => setTimeout(r, 200));
  }
});

afterAll(() => rmSync(path.join(geodata, "geoland.sqlite"), { force: true }));

describe("GET /v1/geocode/forward", () => {
  it("answers an address with every field the data has, in the wire form", async () => {
    const [a] = await forward({ query: "Hauptstrasse 7, 4711 Neustadt" });
    expect(a).toMatchObject({
      layer: "address",
      confidence: "interpolated",
      number: "7",
      street: "Hauptstraße",
      addressLabel: "7 Hauptstraße",
      city: "Neustadt",
      county: "Küstenkreis",
      state: "Nordprovinz",
      stateCode: "NP",
      postalCode: "4711",
      country: "Geoland",
      countryCode: "XG",
      geometry: { type: "Point" },
    });
    expect(a!.latitude).toBeCloseTo(GEOLAND.hauptstrasse7.lat, 4);
    expect(a!.longitude).toBeCloseTo(GEOLAND.hauptstrasse7.lng, 4);
    expect((a!.geometry as { coordinates: number[] }).coordinates).toEqual([a!.longitude, a!.latitude]);
    expect(a!.formattedAddress).toBe("7 Hauptstraße, Neustadt, NP 4711, XG");
    expect(a).not.toHaveProperty("distance");
  });

  it("gives every layer an addressLabel, the layer's own name where there is no house or street", async () => {
    const label = async (query: string, layers: string) => (await forward({ query, layers }))[0];
    expect(await label("Café Zentral", "place")).toMatchObject({
      layer: "place",
      addressLabel: "Café Zentral",
    });
    expect(await label("4711", "postalCode")).toMatchObject({ layer: "postalCode", addressLabel: "4711" });
    expect(await label("Port Kings", "locality")).toMatchObject({
      layer: "locality",
      addressLabel: "Port Kings",
    });
    expect(await label("Nordprovinz", "state")).toMatchObject({
      layer: "state",
      addressLabel: "Nordprovinz",
    });
    expect(await label("Hauptstrasse", "street")).toMatchObject({
      layer: "street",
      addressLabel: "Hauptstraße",
    });
    // The formatted line does not repeat it.
    expect((await label("Port Kings", "locality"))!.formattedAddress).not.toMatch(/Port Kings.*Port Kings/);
    // Reverse geocoding far from any street: an area answer, labelled too.
    const res = await api("GET", `/v1/geocode/reverse?coordinates=0.598,1.002`);
    for (const a of (res.body.addresses ?? []) as Address[])
      expect(a.addressLabel).toEqual(expect.any(String));
  });

  it("filters by layers and country, biases by near, and limits", async () => {
    const streets = await forward({ query: "Hauptstrasse", layers: "street" });
    expect(streets.map((a) => a.layer)).toEqual(["street", "street"]);
    const nearPort = await forward({ query: "Hauptstrasse", layers: "street", near: at(GEOLAND.portKings) });
    expect(nearPort[0]).toMatchObject({ city: "Port Kings" });
    expect(nearPort[0]!.distance).toBeLessThan(1500);
    const one = await forward({ query: "Neustadt", limit: "1" });
    expect(one).toHaveLength(1);
    const german = await forward({ query: "Neustadt", country: "de" });
    expect(german.length).toBeGreaterThan(0);
    expect(german.every((a) => a.countryCode === "DE")).toBe(true);
    const several = await forward({ query: "4711", layers: "postalCode,locality" });
    expect(several[0]).toMatchObject({ layer: "postalCode", postalCode: "4711" });
  });

  it("answers an empty list for what nothing matches, never a made-up address", async () => {
    expect(await forward({ query: "Qwxzv Plorb 99" })).toEqual([]);
  });

  it("refuses bad input with the parameter named", async () => {
    const bad = async (params: string, param: string, message?: RegExp) =>
      expectError(await api("GET", `/v1/geocode/forward?${params}`), 400, param, message);
    await bad("", "query", /required/);
    await bad("query=%20%20", "query", /required/);
    await bad(`query=${"a".repeat(257)}`, "query", /at most 256/);
    await bad("query=Neustadt&layers=address,planet", "layers", /'planet'.*address, street/);
    await bad("query=Neustadt&country=Germany", "country", /two-letter/);
    await bad("query=Neustadt&near=91,0", "near", /latitude/);
    await bad("query=Neustadt&near=abc", "near");
    await bad("query=Neustadt&limit=0", "limit", /between 1 and 100/);
    await bad("query=Neustadt&limit=101", "limit", /between 1 and 100/);
    await bad("query=Neustadt&limit=2.5", "limit");
  });

  it("needs a secret key (publishable keys only where an admin allowed it)", async () => {
    expectError(await api("GET", "/v1/geocode/forward?query=Neustadt", { key: keys.publishable }), 403);
    expectError(await api("GET", "/v1/geocode/forward?query=Neustadt", { key: null }), 401);
  });
});

describe("GET /v1/search/autocomplete", () => {
  it("completes while typing, by relevance with near as a bias, with distances", async () => {
    const near = at(GEOLAND.neustadt);
    const [first] = await autocomplete({ query: "Hauptst", near });
    expect(first).toMatchObject({ layer: "street", street: "Hauptstraße", city: "Neustadt" });
    expect(first!.distance).toBeLessThan(200);
    const numbers = await autocomplete({ query: "Hauptstrasse 1", near });
    expect(numbers[0]).toMatchObject({ layer: "address", number: "1", city: "Neustadt" });
    const towns = await autocomplete({ query: "Neu", near, layers: "locality" });
    expect(towns[0]).toMatchObject({ city: "Neustadt", countryCode: "XG" });
    expect(towns.length).toBeGreaterThan(1); // and the Neustadts, Neusses… of the world
    expect(towns.every((a) => a.layer === "locality" && typeof a.distance === "number")).toBe(true);
    const german = await autocomplete({ query: "Neu", near, countryCode: "DE" });
    expect(german.every((a) => a.countryCode === "DE")).toBe(true);
  });

  it("answers 10 by default, up to the limit asked", async () => {
    const near = at(GEOLAND.neustadt);
    expect(await autocomplete({ query: "Ber", near })).toHaveLength(10);
    expect(await autocomplete({ query: "Ber", near, limit: "3" })).toHaveLength(3);
    expect((await autocomplete({ query: "Ber", near, limit: "100" })).length).toBeGreaterThan(10);
  });

  it("refuses bad input with the parameter named", async () => {
    const bad = async (params: string, param: string, message?: RegExp) =>
      expectError(await api("GET", `/v1/search/autocomplete?${params}`), 400, param, message);
    const near = `near=${at(GEOLAND.neustadt)}`;
    await bad(near, "query", /required/);
    await bad("query=Neu&near=0,200", "near", /longitude/);
    await bad(`query=${"x".repeat(300)}&${near}`, "query", /at most 256/);
    await bad(`query=Neu&${near}&layers=town`, "layers", /'town'/);
    await bad(`query=Neu&${near}&limit=0`, "limit");
    await bad(`query=Neu&${near}&limit=101`, "limit");
    await bad(`query=Neu&${near}&countryCode=DEU`, "countryCode");
  });

  it("acknowledges radar-sdk-js's click report, and checks it", async () => {
    const click = (json: Record<string, unknown>) => api("POST", "/v1/search/autocomplete/click", { json });
    const ok = await click({ sessionToken: "s-1", requestId: "r-1", idx: 2 });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expectError(await click({ idx: -1 }), 400, "idx");
    expectError(await click({ idx: "first" }), 400, "idx");
  });

  it("is callable from a dashboard session whose role may read context", async () => {
    const path = `/v1/search/autocomplete?${q({ query: "Hauptst", near: at(GEOLAND.neustadt) })}`;
    const session = async (role: keyof typeof FRESH_ACCOUNTS) => {
      const cookie = await signIn(FRESH_ACCOUNTS[role], FRESH_PASSWORD);
      return api("GET", path, { key: null, headers: { cookie, origin: baseUrl } });
    };
    const analyst = await session("analyst");
    expect(analyst.status).toBe(200);
    expect((analyst.body.addresses as Address[])[0]).toMatchObject({ street: "Hauptstraße" });
    expectError(await session("reviewer"), 403);
  });
});

describe("GET /v1/addresses/validate", () => {
  type Result = {
    address: Address & { unit?: string };
    result: { verificationStatus: string; corrections?: unknown };
  };
  const validate = async (params: Record<string, string>) => {
    const res = await api("GET", `/v1/addresses/validate?${q({ countryCode: "XG", ...params })}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as unknown as Result;
  };

  it("verifies an imported address, and answers it with its position and time zone", async () => {
    const r = await validate({
      number: "3",
      street: "Hauptstrasse",
      unit: "2B",
      city: "Neustadt",
      stateCode: "NP",
      postalCode: "4711",
    });
    expect(r.result).toEqual({ verificationStatus: "verified" });
    expect(r.address).toMatchObject({ number: "3", street: "Hauptstraße", postalCode: "4711", unit: "2B" });
    expect(r.address.latitude).toBeCloseTo(GEOLAND.hauptstrasse3.lat, 4);
    expect(r.address).toHaveProperty("timeZone");
    // Android's literal "null" for a field it has none of, and an address label instead of parts.
    expect(
      (await validate({ addressLabel: "3 Hauptstraße", city: "Neustadt", stateCode: "null" })).result,
    ).toEqual({
      verificationStatus: "verified",
    });
  });

  it("answers Android's query with spaces left unencoded, as if they were %20, and closes that connection", async () => {
    // What radar-sdk-android's validateAddress writes: the query string as it builds it.
    const raw = (requestLine: string) =>
      new Promise<string>((resolve, reject) => {
        const { hostname, port } = new URL(baseUrl);
        const socket = connect(Number(port), hostname);
        let text = "";
        socket.on("data", (d) => (text += d.toString("latin1")));
        socket.on("close", () => resolve(text));
        socket.on("error", reject);
        socket.setTimeout(10_000, () => socket.destroy());
        socket.on("connect", () =>
          socket.write(
            `${requestLine}\r\nHost: ${hostname}\r\nAuthorization: ${keys.secret}\r\n` +
              "Connection: keep-alive\r\nUser-Agent: Dalvik/2.1.0\r\n\r\n",
          ),
        );
      });
    const text = await raw(
      "GET /v1/addresses/validate?number=1&street=Hauptstrasse&city=Port Kings&stateCode=null&postalCode=4712" +
        "&countryCode=XG HTTP/1.1",
    );
    const split = text.indexOf("\r\n\r\n");
    const head = text.slice(0, split);
    expect(head).toMatch(/^HTTP\/1\.1 200 /);
    expect(head).toMatch(/\r\nconnection: close/i);
    // The body, chunked: size lines and their pieces.
    let body = "";
    for (let rest = text.slice(split + 4); ;) {
      const eol = rest.indexOf("\r\n");
      const size = parseInt(rest.slice(0, eol), 16);
      if (!size) break;
      body += rest.slice(eol + 2, eol + 2 + size);
      rest = rest.slice(eol + 2 + size + 2);
    }
    const answer = JSON.parse(Buffer.from(body, "latin1").toString("utf8")) as Result;
    // "Port Kings" read as two words: the Hauptstraße 1 there, not Neustadt's.
    expect(answer.result).toEqual({ verificationStatus: "verified" });
    expect(answer.address).toMatchObject({ street: "Hauptstraße", city: "Port Kings", postalCode: "4712" });
    // A request line that is broken otherwise still gets Node's 400, and a closed connection.
    expect(await raw("GET /v1/addresses/validate?street=a b")).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
  });

  it("says what differs, what is ambiguous and what is unknown", async () => {
    const wrongPostcode = await validate({
      number: "3",
      street: "Hauptstraße",
      city: "Neustadt",
      postalCode: "4799",
    });
    expect(wrongPostcode.result).toEqual({
      verificationStatus: "partially verified",
      corrections: { postalCode: { given: "4799", found: "4711" } },
    });
    expect(wrongPostcode.address.postalCode).toBe("4711");
    // Number 7 lies between 5 and 11: the street is known, the house is not.
    expect(
      (await validate({ number: "7", street: "Hauptstraße", city: "Neustadt" })).result.verificationStatus,
    ).toBe("partially verified");
    // Hauptstraße 1 is in Neustadt and in Port Kings.
    expect((await validate({ number: "1", street: "Hauptstraße" })).result.verificationStatus).toBe(
      "ambiguous",
    );
    expect(
      (await validate({ number: "1", street: "Hauptstraße", postalCode: "4712" })).address,
    ).toMatchObject({ city: "Port Kings" });
    const unknown = await validate({ number: "99", street: "Nowhere Lane", city: "Neustadt" });
    expect(unknown.result).toEqual({ verificationStatus: "unverified" });
    expect(unknown.address).toMatchObject({ number: "99", street: "Nowhere Lane", countryCode: "XG" });
  });

  it("refuses what cannot be an address, naming the field", async () => {
    expectError(
      await api("GET", `/v1/addresses/validate?${q({ street: "Hauptstraße" })}`),
      400,
      "countryCode",
    );
    expectError(
      await api("GET", `/v1/addresses/validate?${q({ countryCode: "XG", city: "Neustadt" })}`),
      400,
      "street",
    );
    expectError(
      await api("GET", `/v1/addresses/validate?${q({ countryCode: "Geoland", number: "1", street: "x" })}`),
      400,
      "countryCode",
    );
  });
});
