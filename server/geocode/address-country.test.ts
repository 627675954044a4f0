import { withImportedOsm } from "../../tests/support/imported-osm";
import { describe, expect, it } from "vitest";
import { osmBuilder } from "../../tests/support/osm-builder";
import { searchText } from "./forward";
import { reverseGeocode } from "./reverse";

/**
 * An address's own `addr:country`: where no boundary is imported, it outranks the
 * embedded countries. Two houses in La Turbie (France), just above Monaco: one tagged
 * `addr:country=MC` (wrongly, to tell the two kinds of evidence apart), one not, which the
 * embedded borders put in France (Natural Earth's 1:10m shapes alone put it in Monaco).
 */

withImportedOsm("border", () => {
  const { osm, street, node } = osmBuilder();
  street("Chemin des Révoires", [
    [7.4045, 43.7445],
    [7.4075, 43.7445],
  ]);
  node(7.405, 43.7446, {
    "addr:housenumber": "12",
    "addr:street": "Chemin des Révoires",
    "addr:country": "mc",
  });
  node(7.407, 43.7446, { "addr:housenumber": "14", "addr:street": "Chemin des Révoires" });
  return osm;
});

describe("addr:country", () => {
  it("gives a tagged address its own country in reverse and forward geocoding; an untagged neighbour the embedded borders'", () => {
    expect(reverseGeocode([7.405, 43.7446])[0]).toMatchObject({
      number: "12",
      countryCode: "MC",
      country: "Monaco",
    });
    expect(reverseGeocode([7.407, 43.7446])[0]).toMatchObject({ number: "14", countryCode: "FR" });
    const [tagged] = searchText("12 Chemin des Révoires", { limit: 1 });
    expect(tagged).toMatchObject({ number: "12", countryCode: "MC" });
    const [untagged] = searchText("14 Chemin des Révoires", { limit: 1 });
    expect(untagged).toMatchObject({ number: "14", countryCode: "FR" });
  });
});
