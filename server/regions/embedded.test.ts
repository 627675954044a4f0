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

  it("names Kosovo, which Natural Earth gives no ISO code, by the code its borders' data uses (XK)", () => {
    const kosovo = embeddedRegionsAt(21.1655, 42.6629).country!;
    expect(kosovo).toMatchObject({ name: "Kosovo", code: "XK" });
  });

  it("puts border towns on their own side, where Natural Earth's 1:10m shapes do not", () => {
    const at = (lng: number, lat: number) => embeddedRegionsAt(lng, lat).country?.code;
    // Natural Earth alone: MC, MC, CH, CH, FR, IT, NL, PL.
    expect(at(7.4236, 43.743)).toBe("FR"); // Beausoleil
    expect(at(7.405, 43.723)).toBe("FR"); // Cap-d'Ail
    expect(at(8.69, 47.6967)).toBe("DE"); // Büsingen am Hochrhein
    expect(at(8.9711, 45.9686)).toBe("IT"); // Campione d'Italia
    expect(at(1.7333, 42.5425)).toBe("AD"); // Pas de la Casa
    expect(at(12.4534, 41.9022)).toBe("VA"); // St Peter's Square
    expect(at(4.9306, 51.4398)).toBe("BE"); // Baarle-Hertog
    expect(at(14.9874, 51.1526)).toBe("DE"); // Görlitz
    // On land the coarse coast misses (Monaco's seafront), the country whose shore it is …
    expect(at(7.4164, 43.7293)).toBe("MC");
    // … and none out at sea, where the borders' data still names a country (Brazil's waters).
    expect(at(-40.5, -25.5)).toBeUndefined();
  });
});
