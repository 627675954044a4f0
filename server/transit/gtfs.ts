import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { strFromU8, unzipSync } from "fflate";
import { checkAgencies } from "./gtfs/agency";
import { checkCalendar } from "./gtfs/calendar";
import { FeedFiles } from "./gtfs/files";
import { checkFrequencies } from "./gtfs/frequencies";
import { checkRoutes } from "./gtfs/routes";
import { checkStopTimes } from "./gtfs/stop-times";
import { checkStops } from "./gtfs/stops";
import { checkTransfers } from "./gtfs/transfers";
import { checkTrips } from "./gtfs/trips";
import { type Feed, GtfsError } from "./gtfs/types";

export type { Feed, Frequency, Route, Service, Stop, StopTime, Transfer, Trip } from "./gtfs/types";
export { GtfsError } from "./gtfs/types";
export { gtfsTime } from "./gtfs/files";

/**
 * Reading a GTFS feed (docs/transit.md#import): a folder or a .zip of the text files, checked
 * as it is read. Every problem found is reported with its file, line and field, up to a limit,
 * and nothing of a broken feed is kept. Times are seconds from the service day's start ("noon
 * minus 12 hours" in the agency's time zone, so 25:10:00 is past midnight, on the same service
 * day). One checker per file, in ./gtfs/.
 */

/** The feed's text files by name, from a folder or a .zip (also one whose files sit in a folder). */
export function feedFiles(input: string): Map<string, string> {
  const files = new Map<string, string>();
  if (statSync(input).isDirectory()) {
    for (const name of readdirSync(input)) {
      if (name.endsWith(".txt")) files.set(name, readFileSync(path.join(input, name), "utf8"));
    }
    return files;
  }
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(readFileSync(input));
  } catch (e) {
    throw new GtfsError([
      `${path.basename(input)} is neither a folder nor a readable .zip (${(e as Error).message})`,
    ]);
  }
  for (const [name, bytes] of Object.entries(entries)) {
    const base = path.posix.basename(name);
    if (base.endsWith(".txt") && !name.startsWith("__MACOSX")) files.set(base, strFromU8(bytes));
  }
  return files;
}

/** Reads a feed, checking it; throws GtfsError with every problem found. */
export function readFeed(input: string): Feed {
  return parseFeed(feedFiles(input));
}

/** The feed from its files' texts (the tests build feeds this way), each file checked in turn. */
export function parseFeed(texts: Map<string, string>): Feed {
  const files = new FeedFiles(texts);
  const { timezone, agencies } = checkAgencies(files);
  const stops = checkStops(files);
  const routes = checkRoutes(files);
  const services = checkCalendar(files);
  const trips = checkTrips(files, routes.routeIndex, services);
  checkStopTimes(files, trips, stops);
  const frequencies = checkFrequencies(files, trips.tripIndex);
  const { transfers, inSeat } = checkTransfers(files, stops.stopIndex, routes.routeIndex, trips.tripIndex);
  const problems = files.report();
  if (problems.length) throw new GtfsError(problems);
  return {
    timezone,
    agencies,
    stops: stops.stops,
    routes: routes.routes,
    trips: trips.trips,
    services,
    frequencies,
    transfers,
    inSeat,
  };
}
