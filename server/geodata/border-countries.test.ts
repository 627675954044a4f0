import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Bundle } from "../bundles/file";
import { importOsm } from "../imports/osm-import";
import { townAt } from "./features";
import { RegionLookup } from "./region-lookup";
import { regionsAt } from "./regions";

/**
 * The country at a border, on the shared Monaco extract: Monaco's boundary, which the
 * extract cuts at sea, is closed along the extract's edge and kept, so every address in Monaco
 * is in MC; the embedded shapes, too coarse for a country of 2 km², no longer put French towns
 * next door (La Turbie, Beausoleil, Cap-d'Ail) in Monaco, since the exact boundary says they are
 * not: the neighbour they find is France.
 */

const monaco = path.resolve("../shared/data/osm/monaco-2016.osm.pbf");

describe.runIf(existsSync(monaco))("countries at Monaco's border (Monaco 2016)", () => {
  const before = process.env.GEODATA_DIR;
  let file: Bundle;
  beforeAll(async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "border-"));
    const summary = await importOsm(monaco, { dir });
    process.env.GEODATA_DIR = dir;
    file = new Bundle(summary.file);
  }, 60_000);
  afterAll(() => {
    file.close();
    if (before === undefined) delete process.env.GEODATA_DIR;
    else process.env.GEODATA_DIR = before;
  });

  it("gives every address a country, on its own side of the border", () => {
    const towns = new RegionLookup(file);
    const addresses = file
      .statement(`SELECT number, street, lng, lat FROM addresses`)
      .all<{ number: string; street: string; lng: number; lat: number }>();
    expect(addresses.length).toBeGreaterThan(40);
    const wrong: string[] = [];
    let monegasque = 0;
    let french = 0;
    for (const a of addresses) {
      const town = townAt(towns, a.lng, a.lat);
      const country = regionsAt(a.lng, a.lat, undefined, true).country?.code;
      const expected = town === "Monaco" ? "MC" : town ? "FR" : undefined;
      if (expected === "MC") monegasque++;
      if (expected === "FR") french++;
      if (!country || (expected && country !== expected)) {
        wrong.push(`${a.number} ${a.street} (${town ?? "no town"}): ${country ?? "none"}`);
      }
    }
    expect(monegasque).toBeGreaterThan(20);
    expect(french).toBeGreaterThan(0);
    expect(wrong).toEqual([]);
    // "2 Avenue Albert II, Monaco": no country before.
    expect(regionsAt(7.4164, 43.7293).country).toMatchObject({ code: "MC", name: "Monaco" });
  });
});

if (!existsSync(monaco))
  console.warn(`[border-countries.test] ${monaco} is absent: the Monaco check did not run.`);
