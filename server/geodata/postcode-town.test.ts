import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { Bundle } from "../bundles/file";
import { importOsm } from "../imports/osm-import";
import { postcodePointsOf, townAt } from "./features";
import { votePostcode } from "./postcode-vote";
import { RegionLookup } from "./region-lookup";

/**
 * Postcodes do not cross town lines: on the shared Monaco extract, the French towns
 * around Monaco (La Turbie, Beausoleil, Cap-d'Ail, whose boundaries the extract holds) are never
 * given Monaco's 980xx by the vote of nearby addresses, which used to hear Monaco's across the line.
 */

const monaco = path.resolve("../shared/data/osm/monaco-2016.osm.pbf");

describe.runIf(existsSync(monaco))("postcodes by neighbours, town by town (Monaco 2016)", () => {
  it("gives no point of a French town Monaco's postcode, and Monaco's points Monaco's", async () => {
    const summary = await importOsm(monaco, { dir: mkdtempSync(path.join(tmpdir(), "postcode-town-")) });
    const file = new Bundle(summary.file);
    const points = postcodePointsOf(file)!;
    const towns = new RegionLookup(file);
    let french = 0;
    let crossedBefore = 0;
    let monegasque = 0;
    // A grid over the extract's addresses, every ~100 m.
    const { minLng, minLat, maxLng, maxLat } = points.extent;
    for (let lng = minLng; lng <= maxLng; lng += 0.0012) {
      for (let lat = minLat; lat <= maxLat; lat += 0.0009) {
        const town = townAt(towns, lng, lat);
        if (!town) continue;
        const voted = votePostcode([points], lng, lat, town);
        if (town === "Monaco") {
          if (voted) monegasque++;
          if (voted) expect(voted, `${lng},${lat} in Monaco`).toMatch(/^980/);
          continue;
        }
        french++;
        if (votePostcode([points], lng, lat)?.startsWith("980")) crossedBefore++;
        if (voted) expect(voted, `${lng},${lat} in ${town}`).not.toMatch(/^980/);
      }
    }
    expect(french).toBeGreaterThan(20);
    expect(monegasque).toBeGreaterThan(20);
    // What the vote across the line gave these French points before.
    expect(crossedBefore).toBeGreaterThan(0);
    file.close();
  }, 60_000);
});

if (!existsSync(monaco))
  console.warn(`[postcode-town.test] ${monaco} is absent: the Monaco check did not run.`);
