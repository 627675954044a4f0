import { withImportedOsm } from "../../tests/support/imported-osm";
import { describe, expect, it } from "vitest";
import { uslandHeldOut } from "../../tests/support/us-fixture";
import { haversine } from "../geo/distance";
import { searchText } from "./forward";

/**
 * The held-out Manhattan (tests/support/us-fixture.ts): no boundaries, no addr:city, streets
 * named like towns of the state. "<n> Greenwich Avenue, New York, NY <ZIP>" answered the town of
 * Greenwich, NY: the address's indexed areas had neither the city nor the state, so the town
 * explained more of the query. The embedded areas now name what the import lacks.
 */

const osm = uslandHeldOut();
const addresses = osm.nodes.flatMap((n) =>
  n.tags?.["addr:housenumber"]
    ? [
        {
          lng: n.lon,
          lat: n.lat,
          number: n.tags["addr:housenumber"],
          street: n.tags["addr:street"]!,
          zip: n.tags["addr:postcode"]!,
        },
      ]
    : [],
);

withImportedOsm("usland-held-out", () => osm);

const abbreviated = (street: string) =>
  street
    .replace(/\bStreet\b/, "St")
    .replace(/\bAvenue\b/, "Ave")
    .replace(/\bPlace\b/, "Pl")
    .replace(/\bWest\b/, "W");

describe("US addresses on an extract cut from a bigger one", () => {
  it.each(["Greenwich Avenue", "Hudson Street", "Waverly Place", "Amsterdam Avenue", "West 20th Street"])(
    "answers each address of %s written as people do, before the town of that name",
    (street) => {
      const on = addresses.filter((a) => a.street === street);
      expect(on.length).toBeGreaterThan(20);
      for (const a of on) {
        for (const query of [
          `${a.number} ${a.street}, New York, NY ${a.zip}`,
          `${a.number} ${abbreviated(a.street)} New York`,
          `${a.number} ${abbreviated(a.street)} ${a.zip}`.toLowerCase(),
        ]) {
          const [top] = searchText(query, { limit: 3 });
          expect(top?.layer, `${query} → ${top?.formattedAddress}`).toBe("address");
          expect(haversine(top!.longitude!, top!.latitude!, a.lng, a.lat), query).toBeLessThan(30);
          expect(top).toMatchObject({ number: a.number, stateCode: "NY", confidence: "exact" });
        }
      }
    },
  );
});

describe("autocomplete of a street named after a direction, typed in part", () => {
  const near: [number, number] = [-73.99, 40.745];
  it.each([
    ["Eas 22", "East 22nd Street"],
    ["Eas 22nd", "East 22nd Street"],
    ["Wes 20", "West 20th Street"],
    ["Wes 20th St", "West 20th Street"],
    ["E 22", "East 22nd Street"],
    ["East 2", "East 2"],
  ])("%s → %s first", (typed, street) => {
    const [top] = searchText(typed, { prefix: true, limit: 3, near });
    expect(top?.layer, `${typed} → ${top?.formattedAddress}`).toBe("street");
    expect(top!.street!.startsWith(street), `${typed} → ${top?.street}`).toBe(true);
  });
});
