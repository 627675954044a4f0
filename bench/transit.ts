import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { DateTime } from "luxon";
import { databaseFile } from "../server/config/database-url";
import { importGtfs } from "../server/imports/gtfs-import";
import { transitRoute } from "../server/transit/engine";
import { parseFeed } from "../server/transit/gtfs";
import { earliestArrival, latestEarliestArrival } from "../server/transit/raptor";
import { buildTimetable } from "../server/transit/timetable-build";
import { serviceDayStart } from "../server/transit/service-days";
import { realFeedTexts, realFeedsPresent } from "../scripts/real-feeds";
import { rng } from "./geofence-data";
import type { Bench } from "./suite";
import { summary } from "./timings";

/**
 * Transit queries (docs/performance.md#transit): on the shared sample feed, and on a synthetic
 * city-sized feed written here (a grid of 40 × 40 stops 300 m apart; a line along every row and
 * every column, both ways, every 10 minutes from 6:00 to 23:00: 1,600 stops, 160 patterns,
 * about 650,000 stop times), imported into the server's geodata folder. Random trips across the
 * city in-process (what a routing worker runs: access and egress walks, RAPTOR) and through HTTP
 * next to the no-op route.
 */

const SAMPLE = path.resolve("../shared/data/gtfs/sample-feed");
const GRID = 40;
const SPACING_DEG = 0.0027; // ≈ 300 m
const ORIGIN = { lng: 10, lat: 10 }; // open land, no roads imported: walks are estimated
const QUERIES = 500;

/** The synthetic city's feed, written as GTFS text files into a folder. */
export function writeCityFeed(dir: string): { stops: number; stopTimes: number } {
  mkdirSync(dir, { recursive: true });
  const stop = (r: number, c: number) => `S${r}_${c}`;
  const stops = ["stop_id,stop_name,stop_lat,stop_lon"];
  for (let r = 0; r < GRID; r++) {
    for (let c = 0; c < GRID; c++) {
      stops.push(
        `${stop(r, c)},Row ${r} / Col ${c},${ORIGIN.lat + r * SPACING_DEG},${ORIGIN.lng + c * SPACING_DEG}`,
      );
    }
  }
  const routes = ["route_id,route_short_name,route_type"];
  const trips = ["route_id,service_id,trip_id"];
  const times = ["trip_id,arrival_time,departure_time,stop_id,stop_sequence"];
  const clock = (s: number) =>
    `${Math.floor(s / 3600)}:${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}`;
  for (const across of [true, false]) {
    for (let line = 0; line < GRID; line++) {
      const id = `${across ? "R" : "C"}${line}`;
      routes.push(`${id},${id},3`);
      for (const back of [false, true]) {
        for (let start = 6 * 3600 + line * 17; start < 23 * 3600; start += 600) {
          const trip = `${id}${back ? "b" : "f"}${start}`;
          trips.push(`${id},D,${trip}`);
          for (let k = 0; k < GRID; k++) {
            const i = back ? GRID - 1 - k : k;
            const t = start + k * 60; // a minute between stops, 18 km/h
            times.push(`${trip},${clock(t)},${clock(t)},${across ? stop(line, i) : stop(i, line)},${k + 1}`);
          }
        }
      }
    }
  }
  const files: Record<string, string[]> = {
    "agency.txt": ["agency_name,agency_timezone", "Grid City Transit,Africa/Lagos"],
    "calendar.txt": [
      "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date",
      "D,1,1,1,1,1,1,1,20260101,20271231",
    ],
    "stops.txt": stops,
    "routes.txt": routes,
    "trips.txt": trips,
    "stop_times.txt": times,
  };
  for (const [name, lines] of Object.entries(files)) writeFileSync(path.join(dir, name), lines.join("\n"));
  return { stops: stops.length - 1, stopTimes: times.length - 1 };
}

export async function transitSuite(b: Bench): Promise<void> {
  const geodata = path.join(path.dirname(databaseFile(b.server.databaseUrl)), "geodata");
  mkdirSync(geodata, { recursive: true });
  process.env.GEODATA_DIR = geodata;
  const secret = { authorization: b.server.keys.secret };

  const city = path.join(mkdtempSync(path.join(tmpdir(), "transit-bench-")), "grid-city");
  const written = writeCityFeed(city);
  const imported = await importGtfs(city, { dir: geodata });
  b.note(
    `Transit: the grid city, ${written.stops.toLocaleString("en")} stops, ${written.stopTimes.toLocaleString("en")} stop times, imported in ${imported.seconds.toFixed(1)} s.`,
  );
  if (existsSync(SAMPLE)) await importGtfs(SAMPLE, { dir: geodata });
  else b.note(`Transit: ${SAMPLE} is absent; the sample feed was not measured.`);

  const pick = rng(21);
  const span = (GRID - 1) * SPACING_DEG;
  const point = (): [number, number] => [ORIGIN.lng + pick() * span, ORIGIN.lat + pick() * span];
  /** A weekday between 7:00 and 21:00 in Lagos. */
  const when = () => {
    const minutes = 7 * 60 + Math.floor(pick() * 14 * 60);
    return `2026-06-0${1 + Math.floor(pick() * 5)}T${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
  };
  const trips = Array.from({ length: QUERIES }, () => ({ from: point(), to: point(), at: when() }));

  // In-process: the first query prepares the feeds (footpaths); then measured.
  transitRoute(trips[0]!.from, trips[0]!.to, { local: trips[0]!.at });
  const ms: number[] = [];
  let rides = 0;
  for (const t of trips) {
    const t0 = performance.now();
    const r = transitRoute(t.from, t.to, { local: t.at });
    ms.push(performance.now() - t0);
    if ("legs" in r && !r.walkingOnly) rides++;
  }
  b.note(
    `Transit (grid city), in-process (${QUERIES} random trips, ${rides} by transit): ${summary(ms, 2)}.`,
  );

  if (existsSync(SAMPLE)) {
    const sampleMs: number[] = [];
    const stops: [number, number][] = [
      [-116.751677, 36.915682],
      [-116.784582, 36.868446],
      [-116.81797, 36.88108],
      [-116.133162, 36.425288],
      [-116.40094, 36.641496],
      [-116.76821, 36.914893],
    ];
    for (let i = 0; i < QUERIES; i++) {
      const [a, c] = [stops[Math.floor(pick() * stops.length)]!, stops[Math.floor(pick() * stops.length)]!];
      const at = DateTime.fromObject({
        year: 2008,
        month: 6,
        day: 2,
        hour: 6 + Math.floor(pick() * 14),
      }).toISO({
        includeOffset: false,
        suppressMilliseconds: true,
      })!;
      const t0 = performance.now();
      transitRoute(a, c, { local: at });
      sampleMs.push(performance.now() - t0);
    }
    b.note(
      `Transit (sample feed), in-process (${QUERIES} trips between its stops): ${summary(sampleMs, 2)}.`,
    );
  }

  realFeedSearches(b, pick);

  let next = 0;
  await b.runBoth({
    name: "GET /v1/route/distance modes=transit (grid city, random trips)",
    url: b.server.url,
    headers: secret,
    next: () => {
      const t = trips[next++ % trips.length]!;
      return {
        path: `/v1/route/distance?modes=transit&origin=${t.from[1]},${t.from[0]}&destination=${t.to[1]},${t.to[0]}&departureTime=${t.at}`,
      };
    },
  });
}

/**
 * RAPTOR alone on a real operator's feed (the MTA subway, `npm run feeds`): random stop-to-stop
 * journeys on a weekday between 6:00 and 20:00, the earliest arrival, and the same search that
 * then answers the journey leaving latest among those arriving first.
 */
function realFeedSearches(b: Bench, pick: () => number) {
  if (!realFeedsPresent()) {
    b.note("Transit: the real feeds are absent (npm run feeds); the subway was not measured.");
    return;
  }
  const t0 = performance.now();
  const tt = buildTimetable(parseFeed(realFeedTexts("subway")));
  const built = performance.now() - t0;
  const start = serviceDayStart(tt.timezone, 20260924); // a Thursday the feed runs
  const stops = tt.stops.map((_, i) => i).filter((i) => /[NS]$/.test(tt.stops[i]!.id));
  const queries = Array.from({ length: QUERIES }, () => ({
    from: stops[Math.floor(pick() * stops.length)]!,
    to: stops[Math.floor(pick() * stops.length)]!,
    at: start + 6 * 3600 + Math.floor(pick() * 14 * 3600),
  }));
  const time = (search: typeof earliestArrival) => {
    const ms: number[] = [];
    let found = 0;
    for (const q of queries) {
      const s0 = performance.now();
      if (search(tt, [{ stop: q.from, seconds: 0 }], [{ stop: q.to, seconds: 0 }], q.at)) found++;
      ms.push(performance.now() - s0);
    }
    return { ms, found };
  };
  const earliest = time(earliestArrival);
  const latest = time(latestEarliestArrival);
  b.note(
    `Transit (MTA subway, ${tt.stops.length.toLocaleString("en")} stops, ${tt.tripId.length.toLocaleString("en")} trips, built in ${(built / 1000).toFixed(1)} s), RAPTOR in-process, ${QUERIES} random platform-to-platform journeys (${earliest.found} found): earliest arrival ${summary(earliest.ms, 2)}; with the latest departure among first arrivals ${summary(latest.ms, 2)}.`,
  );
}
