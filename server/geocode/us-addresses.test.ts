import { withImportedOsm } from "../../tests/support/imported-osm";
import { describe, expect, it } from "vitest";
import { USLAND, usland } from "../../tests/support/us-fixture";
import { haversine } from "../geo/distance";
import { searchText } from "./forward";

/**
 * US-style full addresses on Usland (tests/support/us-fixture.ts): the address that
 * has that number on that street answers first, ahead of the state and the towns whose names the
 * query also holds; "City, ST ZIP" tails with ZIP+4; abbreviations and ordinals both ways.
 */

withImportedOsm("usland", usland);

const CASES: [string, { lng: number; lat: number }][] = [
  ["115 Charles Street, New York, NY 10014", USLAND.charles115],
  ["190 Waverly Place, New York, NY 10014", USLAND.waverly190],
  ["115 Charles St, New York, NY", USLAND.charles115],
  ["190 Waverly Pl New York NY 10014-1234", USLAND.waverly190],
  ["12 W 4th St, New York, NY 10012", USLAND.west4th12],
  ["12 West Fourth Street, New York, NY", USLAND.west4th12],
  ["200 First Ave, New York, NY 10009", USLAND.first200],
  ["200 1st Avenue, New York", USLAND.first200],
  ["300 Bleecker St, NY, NY 10014", USLAND.bleecker300],
];

describe("US-style full addresses", () => {
  it.each(CASES)("%s", (query, at) => {
    const [top] = searchText(query, { limit: 5 });
    expect(top?.layer, `${query} → ${top?.formattedAddress}`).toBe("address");
    expect(haversine(top!.longitude!, top!.latitude!, at.lng, at.lat)).toBeLessThan(30);
    expect(top).toMatchObject({ countryCode: "US", stateCode: "NY" });
  });
});
