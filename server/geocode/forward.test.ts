import { withImportedOsm } from "../../tests/support/imported-osm";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { GEOLAND, geoland } from "../../tests/support/geocode-fixture";
import { haversine } from "../geo/distance";
import type { Address } from "../text/address";
import { searchText } from "./forward";
import { interpolate } from "./interpolation";

/**
 * Forward geocoding and autocomplete on Geoland (tests/support/geocode-fixture.ts), imported
 * into a folder of its own: every written form of an address, every layer, typos, Unicode.
 */

withImportedOsm("geoland", geoland);

const forward = (query: string, options: Partial<Parameters<typeof searchText>[1]> = {}) =>
  searchText(query, { limit: 10, ...options });
const top = (query: string, options: Partial<Parameters<typeof searchText>[1]> = {}) =>
  forward(query, options)[0];
const metersFrom = (a: Address | undefined, p: { lng: number; lat: number }) =>
  a ? haversine(a.longitude!, a.latitude!, p.lng, p.lat) : Infinity;

describe("forward geocoding", () => {
  it("finds a house number however the address is written", () => {
    for (const query of [
      "Hauptstraße 3, Neustadt",
      "3 Hauptstrasse 4711",
      "hauptstrasse 3 neustadt",
      "HAUPTSTRASSE 3, 4711 NEUSTADT",
      "Hauptstr. 3 Neustadt",
      "Haupt Strasse 3 Neustadt",
    ]) {
      const a = top(query);
      expect(a, query).toMatchObject({
        layer: "address",
        confidence: "exact",
        number: "3",
        street: "Hauptstraße",
        city: "Neustadt",
        postalCode: "4711",
        country: "Geoland",
        countryCode: "XG",
        county: "Küstenkreis",
        state: "Nordprovinz",
      });
      expect(metersFrom(a, GEOLAND.hauptstrasse3), query).toBeLessThan(1);
    }
  });

  it("tells the same street name in two towns apart by town or postcode", () => {
    for (const query of ["Hauptstrasse 1, Port Kings", "Hauptstrasse 1 4712", "1 hauptstrasse port kings"]) {
      expect(metersFrom(top(query), GEOLAND.portKingsHauptstrasse1), query).toBeLessThan(1);
    }
    expect(top("Hauptstrasse 1, Neustadt")).toMatchObject({ city: "Neustadt", postalCode: "4711" });
  });

  it("places a missing house number between its neighbours, or falls back to the street", () => {
    const seven = top("Hauptstrasse 7, Neustadt");
    expect(seven).toMatchObject({
      layer: "address",
      confidence: "interpolated",
      number: "7",
      city: "Neustadt",
    });
    expect(metersFrom(seven, GEOLAND.hauptstrasse7)).toBeLessThan(5);
    // Beyond the street's last number: the street itself, on the street.
    const far = top("Hauptstrasse 99, Neustadt");
    expect(far).toMatchObject({
      layer: "street",
      confidence: "fallback",
      street: "Hauptstraße",
      city: "Neustadt",
    });
    expect(far!.latitude).toBeCloseTo(0.52, 6);
  });

  it("interpolates between the nearest numbers on the same side of the street", () => {
    const known = [
      { number: "1", lng: 0, lat: 0 },
      { number: "4", lng: 0.001, lat: 0.001 },
      { number: "5", lng: 0.002, lat: 0 },
      { number: "8", lng: 0.003, lat: 0.001 },
    ];
    const at = (n: string) => interpolate(known, n)?.position.map((x) => Math.round(x * 1e6) / 1e6);
    expect(at("3")).toEqual([0.001, 0]); // between 1 and 5, not 1 and 4
    expect(at("6")).toEqual([0.002, 0.001]); // between 4 and 8
    expect(interpolate(known, "5")).toEqual({ position: [0.002, 0], exact: true });
    expect(interpolate(known, "3")!.exact).toBe(false);
    expect(interpolate(known, "9")).toBeUndefined();
    expect(interpolate(known, "x")).toBeUndefined();
    // Known numbers more than a kilometre apart say nothing about what lies between them.
    expect(interpolate([known[0]!, { number: "9", lng: 0.02, lat: 0 }], "5")).toBeUndefined();
  });

  it("is tolerant of accents, umlauts, case, abbreviations and one-letter typos", () => {
    for (const query of [
      "Äulestraße 5",
      "aeulestrasse 5",
      "AULESTRASSE 5",
      "Äulestr. 5",
      "Aeulestrase 5",
      "Äulestraße 5, Nuestadt",
    ]) {
      expect(top(query), query).toMatchObject({ layer: "address", number: "5", street: "Äulestraße" });
    }
    expect(top("rue de l eglise 12")).toMatchObject({ number: "12", street: "Rue de l'Église" });
    expect(top("RUE DE L’ÉGLISE 12")).toMatchObject({ number: "12", street: "Rue de l'Église" });
    expect(top("Kings Ave 10")).toMatchObject({ number: "10", street: "Kings Avenue" });
    expect(top("Hauptstrase 3 Neustadt")).toMatchObject({ number: "3", confidence: "exact" });
  });

  it("answers every layer", () => {
    expect(top("Hauptstrasse, Neustadt")).toMatchObject({
      layer: "street",
      street: "Hauptstraße",
      city: "Neustadt",
    });
    expect(top("Café Zentral")).toMatchObject({
      layer: "place",
      placeLabel: "Café Zentral",
      city: "Neustadt",
    });
    expect(top("kings market")).toMatchObject({ layer: "place", placeLabel: "Kings Market" });
    expect(top("4711")).toMatchObject({ layer: "postalCode", postalCode: "4711", city: "Neustadt" });
    expect(top("Neustadt")).toMatchObject({ layer: "locality", city: "Neustadt", countryCode: "XG" });
    expect(top("Küstenkreis")).toMatchObject({ layer: "county", county: "Küstenkreis" });
    expect(top("Nordprovinz")).toMatchObject({ layer: "state", state: "Nordprovinz", stateCode: "NP" });
    expect(top("Geoland")).toMatchObject({ layer: "country", country: "Geoland", countryCode: "XG" });
    // A town's answer does not carry the postcode or street of the point standing for it.
    expect(top("Neustadt")).not.toHaveProperty("postalCode");
    expect(top("Geoland")).not.toHaveProperty("city");
  });

  it("keeps to the layers and countries asked for", () => {
    const streets = forward("Hauptstrasse", { layers: ["street"] });
    expect(streets.map((a) => a.city).sort()).toEqual(["Neustadt", "Port Kings"]);
    expect(streets.every((a) => a.layer === "street")).toBe(true);
    expect(forward("Neustadt", { countries: ["XG"] }).every((a) => a.countryCode === "XG")).toBe(true);
    expect(forward("Neustadt", { countries: ["DE"] })[0]).toMatchObject({
      countryCode: "DE",
      layer: "locality",
    });
    expect(forward("Hauptstrasse 3 Neustadt", { limit: 1 })).toHaveLength(1);
  });

  it("answers towns, countries and US states worldwide without an import", () => {
    expect(top("Paris")).toMatchObject({ layer: "locality", city: "Paris", countryCode: "FR" });
    expect(top("Springfield, IL")).toMatchObject({ layer: "locality", city: "Springfield", stateCode: "IL" });
    expect(top("Andorra la Vella")).toMatchObject({ layer: "locality", countryCode: "AD" });
    expect(top("Germany")).toMatchObject({
      layer: "country",
      countryCode: "DE",
      formattedAddress: "Germany",
    });
    expect(top("Deutschland")).toMatchObject({ layer: "country", countryCode: "DE" });
    expect(top("California")).toMatchObject({ layer: "state", state: "California", stateCode: "CA" });
    expect(forward("zzzzqqqq")).toEqual([]);
  });

  it("writes the address in the country's order", () => {
    expect(top("Paris")!.formattedAddress).toBe("Paris, FR");
    expect(top("Andorra la Vella")!.formattedAddress).toMatch(/^Andorra la Vella, AD$/);
  });
});

describe("autocomplete", () => {
  it("completes the last word, nearest first among equals, with distances", () => {
    const nearNeustadt = forward("Hauptst", {
      prefix: true,
      near: [GEOLAND.neustadt.lng, GEOLAND.neustadt.lat],
    });
    expect(nearNeustadt[0]).toMatchObject({ layer: "street", street: "Hauptstraße", city: "Neustadt" });
    expect(nearNeustadt[0]!.distance).toBeLessThan(200);
    const nearPort = forward("Hauptst", {
      prefix: true,
      near: [GEOLAND.portKings.lng, GEOLAND.portKings.lat],
    });
    expect(nearPort[0]).toMatchObject({ layer: "street", city: "Port Kings" });
    expect(
      forward("Neu", { prefix: true, near: [GEOLAND.neustadt.lng, GEOLAND.neustadt.lat] })[0],
    ).toMatchObject({
      layer: "locality",
      city: "Neustadt",
    });
  });

  it("prefers a whole number to one that only starts with it", () => {
    const near: [number, number] = [GEOLAND.neustadt.lng, GEOLAND.neustadt.lat];
    const results = forward("Hauptstrasse 1", { prefix: true, near });
    expect(results[0]).toMatchObject({ number: "1", city: "Neustadt" });
    expect(results.map((a) => a.number)).toContain("11");
    // A finished word is not a prefix: "Kings " is the word Kings.
    expect(
      forward("Kings ", { prefix: true, near }).every((a) => !/Kingston/.test(a.formattedAddress ?? "")),
    ).toBe(true);
  });
});

describe("any text", () => {
  it("is answered with a list, never an error (quotes, FTS operators, scripts, emoji, digits)", () => {
    const pieces = fc.constantFrom(
      '"',
      "*",
      "^",
      "(",
      ")",
      ":",
      "-",
      "NEAR",
      "AND",
      "OR",
      "NOT",
      "'",
      "ß",
      "ǆ",
      "😀",
      "12",
      " ",
      ",",
    );
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.string({ unit: "grapheme", maxLength: 6 }), pieces), { maxLength: 12 }),
        fc.boolean(),
        (parts, prefix) => {
          const results = searchText(parts.join(""), { limit: 5, prefix, near: [1.016, 0.52] });
          expect(Array.isArray(results)).toBe(true);
          expect(results.length).toBeLessThanOrEqual(5);
        },
      ),
      { numRuns: 300 },
    );
  });
});
