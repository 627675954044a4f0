import { describe, expect, it } from "vitest";
import { cityAt, cityRadiusKm, citiesNamed, neighborhoodAt } from "./cities";

/** The embedded GeoNames cities (docs/data.md#notes-and-limits): which city a point is in. */

describe("cityAt", () => {
  it("names the big city around a point rather than a nearer small centre", () => {
    // Upper West Side and Brooklyn: New York City (8 M), not the boroughs' own entries.
    expect(cityAt(-73.975, 40.787)).toMatchObject({
      name: "New York City",
      countryCode: "US",
      adminCode: "NY",
    });
    expect(cityAt(-73.95, 40.65)?.name).toBe("New York City");
    expect(cityAt(2.35, 48.85)).toMatchObject({ name: "Paris", countryCode: "FR" });
  });

  it("names a small town at its centre, and nothing far from every town", () => {
    expect(cityAt(9.5215, 47.1415)).toMatchObject({ name: "Vaduz", countryCode: "LI", featureCode: "PPLC" });
    expect(cityAt(2.13, 48.8)?.name).toBe("Versailles");
    expect(cityAt(-117.5, 39)).toBeUndefined(); // central Nevada
    expect(cityAt(-40, 30)).toBeUndefined(); // the Atlantic
  });

  it("grows a city's reach with its population", () => {
    expect(cityRadiusKm(1000)).toBeCloseTo(1, 5);
    expect(cityRadiusKm(1_000_000)).toBeCloseTo(8.4, 1);
    expect(cityRadiusKm(500)).toBe(cityRadiusKm(1000));
  });
});

describe("neighborhoodAt", () => {
  it("names a city's section within 1.5 km", () => {
    expect(neighborhoodAt(13.4, 52.52)?.name).toBe("Mitte");
    expect(neighborhoodAt(7.42, 43.735)?.name).toBe("La Condamine");
    expect(neighborhoodAt(-117.5, 39)).toBeUndefined();
  });
});

describe("citiesNamed", () => {
  it("finds a city by its name as typed, most populous first", () => {
    expect(citiesNamed("Vaduz")[0]).toMatchObject({ name: "Vaduz", countryCode: "LI" });
    expect(citiesNamed("paris")[0]).toMatchObject({ name: "Paris", countryCode: "FR" });
    // Accents and umlauts either way.
    expect(citiesNamed("zurich")[0]).toMatchObject({ name: "Zürich", countryCode: "CH" });
    expect(citiesNamed("ZUERICH")[0]).toMatchObject({ name: "Zürich" });
    expect(citiesNamed("Vaduzz")).toEqual([]);
  });

  it("finds names that start with what is typed, and keeps to a country when asked", () => {
    const vad = citiesNamed("Vad", { prefix: true, limit: 5 });
    expect(vad.map((c) => c.name)).toContain("Vadodara");
    expect(vad[0]!.population).toBeGreaterThanOrEqual(vad[1]!.population);
    expect(citiesNamed("Vad", { prefix: true, countryCode: "li" }).map((c) => c.name)).toEqual(["Vaduz"]);
    expect(citiesNamed("Paris", { countryCode: "US" }).every((c) => c.countryCode === "US")).toBe(true);
    expect(citiesNamed("   ")).toEqual([]);
  });
});
