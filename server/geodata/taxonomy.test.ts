import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CATEGORIES, placeOf, slugify } from "./taxonomy";

describe("place taxonomy", () => {
  it("is documented as it is: every tag and slug appears in docs/data.md", () => {
    const docs = readFileSync("docs/data.md", "utf8");
    for (const [key, values] of Object.entries(CATEGORIES)) {
      for (const [value, [slug, family]] of Object.entries(values)) {
        const cells = [`${key}=${value}`, slug, family].map(
          (c) => `\\|\\s*\`${c.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\`\\s*`,
        );
        expect(docs).toMatch(new RegExp(`${cells.join("")}\\|`));
      }
    }
  });

  it("makes places only of named objects with a category", () => {
    expect(placeOf({ amenity: "cafe" })).toBeNull();
    expect(placeOf({ name: "Bench", amenity: "bench" })).toBeNull();
    expect(placeOf({ name: "Corner", shop: "vacant" })).toBeNull();
    expect(placeOf({ name: "Odd Shop", shop: "trade" })).toEqual({
      name: "Odd Shop",
      categories: ["store", "shopping-retail"],
    });
    expect(
      placeOf({ name: "Café Zürich", amenity: "cafe", shop: "bakery", brand: "Café Zürich & Co." }),
    ).toEqual({
      name: "Café Zürich",
      categories: ["coffee-shop", "food-beverage", "bakery"],
      chain: { slug: "cafe-zurich-co", name: "Café Zürich & Co." },
    });
  });

  it("slugs brand names", () => {
    expect(slugify("McDonald's")).toBe("mcdonalds");
    expect(slugify("  Migros  ")).toBe("migros");
  });
});
