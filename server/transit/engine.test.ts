import { existsSync, mkdtempSync, writeFileSync, mkdirSync, cpSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { strToU8, zipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Bundle } from "../bundles/file";
import { timetableOf } from "./timetable-bundle";
import { importOsm } from "../imports/osm-import";
import { GtfsError } from "./gtfs";
import { importGtfs } from "../imports/gtfs-import";
import { transitRoute } from "./engine";
import { clock, serviceDayStart } from "./service-days";

/**
 * GTFS imports as bundles (a re-import replaces the feed; a broken one changes nothing), and
 * transit trips through the engine on the shared sample feed with the Beatty extract's roads for
 * the walks (skipped, with a warning, when ../shared/data is absent).
 */

const sample = path.resolve("../shared/data/gtfs/sample-feed");
const beatty = path.resolve("../shared/data/osm/beatty-nevada.osm.pbf");

describe("GTFS imports", () => {
  const feed = (departure: string) => ({
    "agency.txt": "agency_name,agency_timezone\nT,Europe/Paris",
    "calendar_dates.txt": "service_id,date,exception_type\nS,20260601,1",
    "stops.txt": "stop_id,stop_lat,stop_lon\nA,48.85,2.35\nB,48.86,2.36",
    "routes.txt": "route_id,route_short_name,route_type\nR,1,3",
    "trips.txt": "route_id,service_id,trip_id\nR,S,t",
    "stop_times.txt": `trip_id,arrival_time,departure_time,stop_id,stop_sequence\nt,${departure},${departure},A,1\nt,23:59:00,23:59:00,B,2`,
  });
  const write = (dir: string, files: Record<string, string>) => {
    mkdirSync(dir, { recursive: true });
    for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
    return dir;
  };

  it("replaces a feed on re-import, keeps it when the new one is broken, and reads a .zip", async () => {
    const work = mkdtempSync(path.join(tmpdir(), "gtfs-import-"));
    const dir = path.join(work, "geodata");
    const first = await importGtfs(write(path.join(work, "v1", "city"), feed("8:00:00")), { dir });
    expect(first.name).toBe("city");
    const departureOf = () => timetableOf(new Bundle(first.file))!.departure[0];
    expect(departureOf()).toBe(8 * 3600);
    await importGtfs(write(path.join(work, "v2", "city"), feed("9:00:00")), { dir });
    expect(departureOf()).toBe(9 * 3600);
    const broken = feed("9:7:00");
    await expect(importGtfs(write(path.join(work, "v3", "city"), broken), { dir })).rejects.toBeInstanceOf(
      GtfsError,
    );
    expect(departureOf()).toBe(9 * 3600);
    // Another feed lives beside it; a .zip is a feed too.
    cpSync(path.join(work, "v2", "city"), path.join(work, "other"), { recursive: true });
    const other = await importGtfs(path.join(work, "other"), { dir });
    expect(other.name).toBe("other");
    expect(timetableOf(new Bundle(first.file))).not.toBeNull();
    const zip = path.join(work, "zipped.zip");
    writeFileSync(
      zip,
      zipSync(Object.fromEntries(Object.entries(feed("7:00:00")).map(([k, v]) => [`feed/${k}`, strToU8(v)]))),
    );
    const zipped = await importGtfs(zip, { dir });
    expect(zipped.name).toBe("zipped");
    expect(timetableOf(new Bundle(zipped.file))!.departure[0]).toBe(7 * 3600);
  });
});

describe.runIf(existsSync(sample) && existsSync(beatty))(
  "transit on the sample feed with Beatty's roads",
  () => {
    const before = process.env.GEODATA_DIR;
    beforeAll(async () => {
      const dir = mkdtempSync(path.join(tmpdir(), "transit-engine-"));
      await importOsm(beatty, { dir });
      await importGtfs(sample, { dir });
      process.env.GEODATA_DIR = dir;
    }, 60_000);
    afterAll(() => {
      if (before === undefined) delete process.env.GEODATA_DIR;
      else process.env.GEODATA_DIR = before;
    });

    it("walks to Stagecoach, changes at the airport onto AB1 and walks from Bullfrog", () => {
      const day = serviceDayStart("America/Los_Angeles", 20080602); // a Monday
      // From the street outside the Stagecoach Hotel to near Bullfrog, leaving 7:22.
      const r = transitRoute([-116.7512, 36.9158], [-116.8175, 36.8812], { local: "2008-06-02T07:22" });
      expect("legs" in r).toBe(true);
      if (!("legs" in r)) return;
      const rides = r.legs.filter((l) => l.mode === "transit");
      expect(rides.map((l) => [l.trip!.id, clock(l.departure - day), l.from.stopId, l.to.stopId])).toEqual([
        ["STBA@7:30:00", "7:30:00", "STAGECOACH", "BEATTY_AIRPORT"],
        ["AB1", "8:00:00", "BEATTY_AIRPORT", "BULLFROG"],
      ]);
      expect(r.legs[0]!.mode).toBe("walk");
      expect(r.legs.at(-1)!.mode).toBe("walk");
      // Arrival: 8:10 at Bullfrog, then the walk from the stop.
      expect(r.arrival - day).toBeGreaterThan(8 * 3600 + 10 * 60);
      expect(r.arrival - day).toBeLessThan(8 * 3600 + 15 * 60);
      expect(r.seconds).toBe(r.arrival - r.departure);
      // Left as late as still arrives then: the walk to the 7:30, not at 7:22.
      expect(r.departure - day).toBeGreaterThan(7 * 3600 + 22 * 60);
      expect(r.legs[0]!.arrival - day).toBeLessThanOrEqual(7 * 3600 + 30 * 60);
    });

    it("catches the departure at the very minute from the stop itself", () => {
      const day = serviceDayStart("America/Los_Angeles", 20080602);
      // At the Stagecoach Hotel stop (10 m from its pole) at 7:30: the 7:30 leaves with the rider on it.
      const r = transitRoute([-116.751677, 36.915772], [-116.784582, 36.868446], {
        local: "2008-06-02T07:30",
      });
      expect("legs" in r).toBe(true);
      if (!("legs" in r)) return;
      const ride = r.legs.find((l) => l.mode === "transit")!;
      expect([ride.trip!.id, clock(ride.departure - day)]).toEqual(["STBA@7:30:00", "7:30:00"]);
    });
  },
);

if (!existsSync(sample) || !existsSync(beatty)) {
  console.warn(
    `[transit engine.test] ${sample} or ${beatty} is absent: the sample feed with roads did not run.`,
  );
}
