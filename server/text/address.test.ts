import { describe, expect, it } from "vitest";
import { addressLabel, formatAddress } from "./address";

describe("addresses written in the country's order", () => {
  it("puts the number after the street and the postcode before the town in most of Europe", () => {
    expect(addressLabel("12", "Landstrasse", undefined, "LI")).toBe("Landstrasse 12");
    expect(
      formatAddress({
        layer: "address",
        confidence: "exact",
        addressLabel: "Landstrasse 12",
        city: "Vaduz",
        postalCode: "9490",
        countryCode: "LI",
      }),
    ).toBe("Landstrasse 12, 9490 Vaduz, LI");
  });

  it("puts the number first in France and Monaco, with the postcode before the town", () => {
    expect(addressLabel("10", "Boulevard des Moulins", undefined, "MC")).toBe("10 Boulevard des Moulins");
    expect(
      formatAddress({
        layer: "address",
        confidence: "exact",
        addressLabel: "10 Boulevard des Moulins",
        city: "Monaco",
        postalCode: "98000",
        countryCode: "MC",
      }),
    ).toBe("10 Boulevard des Moulins, 98000 Monaco, MC");
  });

  it("writes US addresses with the state's code and the ZIP after the town", () => {
    expect(addressLabel("12", "Main Street", "Apt 4", "US")).toBe("12 Main Street Apt 4");
    expect(
      formatAddress({
        layer: "address",
        confidence: "exact",
        addressLabel: "12 Main Street",
        city: "Springfield",
        state: "Illinois",
        stateCode: "IL",
        postalCode: "62701",
        countryCode: "US",
      }),
    ).toBe("12 Main Street, Springfield, IL 62701, US");
  });

  it("names a country or a state in full, and a place by its name", () => {
    expect(
      formatAddress({ layer: "country", confidence: "exact", country: "Germany", countryCode: "DE" }),
    ).toBe("Germany");
    expect(
      formatAddress({
        layer: "state",
        confidence: "exact",
        state: "California",
        stateCode: "CA",
        countryCode: "US",
      }),
    ).toBe("California, US");
    expect(
      formatAddress({
        layer: "place",
        confidence: "exact",
        placeLabel: "Café Zentral",
        city: "Vaduz",
        countryCode: "LI",
      }),
    ).toBe("Café Zentral, Vaduz, LI");
  });
});
