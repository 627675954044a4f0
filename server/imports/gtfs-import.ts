import path from "node:path";
import { importName, writeImport } from "./import-file";
import { readFeed } from "../transit/gtfs";
import { buildTimetable } from "../transit/timetable-build";

/**
 * A GTFS feed imported as a bundle of its own (docs/transit.md#import): `<name>.sqlite` in the
 * geodata folder with the timetable in its transit table, written beside the file and renamed
 * over the old one when complete, so a re-import replaces the feed at once and a broken feed
 * changes nothing (readFeed throws GtfsError before anything is written).
 */

export interface GtfsImportSummary {
  name: string;
  file: string;
  agencies: number;
  stops: number;
  routes: number;
  trips: number;
  stopTimes: number;
  seconds: number;
}

export type GtfsImportStep =
  "reading and checking the feed" | "building the timetable" | "writing the bundle";

export async function importGtfs(
  input: string,
  options: { dir: string; name?: string; onStep?: (step: GtfsImportStep) => void },
): Promise<GtfsImportSummary> {
  const started = performance.now();
  const name = options.name ?? importName(input.replace(/[/\\]+$/, ""));
  options.onStep?.("reading and checking the feed");
  const feed = readFeed(input);
  options.onStep?.("building the timetable");
  const timetable = buildTimetable(feed);
  options.onStep?.("writing the bundle");
  const counts = {
    agencies: feed.agencies.length,
    stops: feed.stops.length,
    routes: feed.routes.length,
    trips: timetable.tripId.length,
    stopTimes: timetable.arrival.length,
  };
  const written = await writeImport(
    { dir: options.dir, name, source: path.resolve(input) },
    async (writer) => {
      writer.transit(timetable);
      writer.meta("kind", "gtfs");
      writer.meta("timezone", feed.timezone);
      return counts;
    },
  );
  return { name, file: written.file, ...counts, seconds: (performance.now() - started) / 1000 };
}
