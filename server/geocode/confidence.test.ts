import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { searchText } from "./forward";

/**
 * Answers on a fresh install (nothing imported: the embedded GeoNames cities, countries and US
 * states), as a new user tries them: the place people mean first, and Radar's `fallback` when the
 * answer is coarser than what was asked.
 */

const previous = process.env.GEODATA_DIR;
beforeAll(() => {
  process.env.GEODATA_DIR = mkdtempSync(path.join(tmpdir(), "confidence-"));
});
afterAll(() => {
  if (previous === undefined) delete process.env.GEODATA_DIR;
  else process.env.GEODATA_DIR = previous;
});

const first = (text: string) => searchText(text, { limit: 3 })[0]!;

describe("forward geocoding without an import", () => {
  it("answers a bare name with the place people mean: the city of millions before its state, not before a country", () => {
    expect(first("New York")).toMatchObject({
      layer: "locality",
      city: "New York City",
      confidence: "exact",
    });
    expect(first("New York, NY")).toMatchObject({ layer: "locality", city: "New York City" });
    expect(first("London")).toMatchObject({ layer: "locality", countryCode: "GB", confidence: "exact" });
    // A smaller city named with the state's name and "City", or a capital named after its country.
    expect(first("Kansas")).toMatchObject({ layer: "state", stateCode: "KS" });
    expect(first("Oklahoma")).toMatchObject({ layer: "state", stateCode: "OK" });
    expect(first("Mexico")).toMatchObject({ layer: "country", countryCode: "MX" });
  });

  it("says fallback when the answer is coarser than the query", () => {
    expect(first("10 Downing Street, London")).toMatchObject({
      layer: "locality",
      countryCode: "GB",
      confidence: "fallback",
    });
    expect(first("Empire State Building, New York")).toMatchObject({
      layer: "locality",
      city: "New York City",
      confidence: "fallback",
    });
  });
});
