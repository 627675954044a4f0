import { describe, expect, it } from "vitest";
import { embeddedRegionsAt } from "./embedded";

describe("embedded regions", () => {
  it.each([
    ["Manhattan", -73.9712, 40.7831, "US", "NY"],
    ["Los Angeles", -118.2437, 34.0522, "US", "CA"],
    ["Honolulu", -157.8583, 21.3069, "US", "HI"],
    ["Paris", 2.3522, 48.8566, "FR", undefined],
    ["Tokyo", 139.6917, 35.6895, "JP", undefined],
    ["São Paulo", -46.6333, -23.5505, "BR", undefined],
    ["Vaduz", 9.5209, 47.141, "LI", undefined],
    ["Sydney", 151.2093, -33.8688, "AU", undefined],
  ])("finds %s in its country (and US state)", (_name, lng, lat, country, state) => {
    const r = embeddedRegionsAt(lng, lat);
    expect(r.country?.code).toBe(country);
    expect(r.country?.type).toBe("country");
    expect(r.state?.code).toBe(state);
  });

  it("names countries and states", () => {
    const r = embeddedRegionsAt(-73.9712, 40.7831);
    expect(r.country).toMatchObject({ name: "United States of America", code: "US" });
    expect(r.state).toEqual({ type: "state", name: "New York", code: "NY" });
  });

  it("finds nothing at sea, and no state outside the US", () => {
    expect(embeddedRegionsAt(-40, 30)).toEqual({});
    expect(embeddedRegionsAt(2.3522, 48.8566).state).toBeUndefined();
  });

  it("keeps a region without an ISO code, without inventing one", () => {
    const kosovo = embeddedRegionsAt(21.1655, 42.6629).country!;
    expect(kosovo.name).toBe("Kosovo");
    expect(kosovo.code).toBeUndefined();
  });
});
