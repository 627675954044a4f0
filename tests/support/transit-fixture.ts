import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { roadland } from "./road-fixture";

/**
 * The Shore Line: a one-line GTFS feed on Roadland's roads (tests/support/road-fixture.ts), from
 * A (node 1) to M (node 8), 555 m apart on foot, once a day at 8:00 Lagos time (UTC+1, no
 * summer time), in two minutes; daily through 2026.
 */
export const SHORE_LINE: Record<string, string> = {
  "agency.txt": "agency_id,agency_name,agency_timezone\nRL,Roadland Lines,Africa/Lagos",
  "calendar.txt":
    "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nD,1,1,1,1,1,1,1,20260101,20261231",
  "routes.txt": "route_id,agency_id,route_short_name,route_long_name,route_type\nL1,RL,1,Shore Line,3",
  "stops.txt": `stop_id,stop_name,stop_lat,stop_lon\nSA,Shore A,${roadland(1).lat},${roadland(1).lng}\nSM,Bollard M,${roadland(8).lat},${roadland(8).lng}`,
  "trips.txt": "route_id,service_id,trip_id,trip_headsign\nL1,D,L1-0800,to M",
  "stop_times.txt":
    "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nL1-0800,8:00:00,8:00:00,SA,1\nL1-0800,8:02:00,8:02:00,SM,2",
};

/** Writes the Shore Line's files into `folder` (created), as a feed folder to import. */
export function writeShoreLine(folder: string): string {
  mkdirSync(folder, { recursive: true });
  for (const [name, text] of Object.entries(SHORE_LINE)) writeFileSync(path.join(folder, name), text);
  return folder;
}
