import { withImportedOsm } from "../../tests/support/imported-osm";
import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { regionsAt } from "../geodata/regions";
import { reverseGeocode } from "./reverse";

/**
 * Reverse geocoding on real data: the shared Liechtenstein extract imported into a folder of its
 * own (GEODATA_DIR). Every house number in it must be found again from a point near it.
 */

const shared = path.resolve("../shared/data/osm/liechtenstein-2021.osm.pbf");

describe.runIf(existsSync(shared))("reverse geocoding in Liechtenstein (shared extract)", () => {
  withImportedOsm("reverse", shared);

  it("answers the house number at Vaduz's centre, with the municipality from the import", () => {
    const [address] = reverseGeocode([9.5215, 47.1415]);
    expect(address).toMatchObject({
      layer: "address",
      confidence: "exact",
      country: "Liechtenstein",
      countryCode: "LI",
      city: "Vaduz",
      postalCode: "9490",
    });
    expect(address!.distance).toBeLessThan(20);
    expect(address!.formattedAddress).toMatch(/^[^,\d]+ \d+\w*, 9490 Vaduz, LI$/); // street before number, postcode before city
  });

  it("names the street where no house number is near, and the municipality up in the Alps", () => {
    // A point of Planknerstrasse between Schaan and Planken, where no house number is near.
    const [road] = reverseGeocode([9.5172609, 47.1706688]);
    expect(road).toMatchObject({
      layer: "street",
      street: "Planknerstrasse",
      city: "Schaan",
      county: "Oberland",
      distance: 0,
      postalCode: "9494",
      formattedAddress: "Planknerstrasse, 9494 Schaan, LI",
    });
    // A mountainside above Triesen: no street; the municipality and its postcode.
    const [mountain] = reverseGeocode([9.55, 47.09]);
    expect(mountain).toMatchObject({
      layer: "postalCode",
      city: "Triesen",
      postalCode: "9495",
      formattedAddress: "9495 Triesen, LI",
    });
    // Malbun's house numbers carry their own addr:city, which comes first.
    expect(reverseGeocode([9.6097, 47.1018])[0]).toMatchObject({ layer: "address", city: "Malbun" });
  });

  it("gives every municipality its postcode from the addresses (the extract maps no postal-code boundary)", () => {
    const postcode = (lat: number, lng: number) => regionsAt(lng, lat).postalCode?.code;
    // Between Eschen and Nendeln: Eschen's nearest houses are 760 m away, Nendeln's (9485) 980 m.
    expect(postcode(47.2, 9.53)).toBe("9492");
    expect(postcode(47.23, 9.55)).toBe("9488"); // Schellenberg
    expect(postcode(47.1, 9.62)).toBe("9497"); // above Malbun, in Triesenberg
    expect(postcode(47.06, 9.6)).toBeUndefined(); // high in the Alps, kilometres from any address
  });
});

if (!existsSync(shared))
  console.warn(`[reverse.test] ${shared} is absent: reverse geocoding on real data did not run.`);
