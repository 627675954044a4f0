import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { strFromU8, unzipSync } from "fflate";
import { IANAZone } from "luxon";

/**
 * Reading a GTFS feed (docs/transit.md#import): a folder or a .zip of the text files, checked
 * as it is read. Every problem found is reported with its file, line and field, up to a limit,
 * and nothing of a broken feed is kept. Times are seconds from the service day's start ("noon
 * minus 12 hours" in the agency's time zone, so 25:10:00 is past midnight, on the same service
 * day).
 */

export interface Stop {
  id: string;
  name: string;
  lat: number;
  lng: number;
  /** location_type: 0 a stop or platform (what trips call at), 1 a station, 2–4 entrances and such */
  type: number;
  parent?: string;
}

export interface Route {
  id: string;
  agencyId?: string;
  shortName: string;
  longName: string;
  type: number;
}

export interface StopTime {
  /** index into Feed.stops */
  stop: number;
  arrival: number;
  departure: number;
}

export interface Trip {
  id: string;
  /** index into Feed.routes */
  route: number;
  serviceId: string;
  headsign?: string;
  blockId?: string;
  stopTimes: StopTime[];
}

export interface Service {
  /** Monday first */
  days: boolean[];
  /** yyyymmdd; 0 when the service has no calendar.txt row (only calendar_dates) */
  start: number;
  end: number;
  added: Set<number>;
  removed: Set<number>;
}

export interface Frequency {
  start: number;
  end: number;
  headway: number;
}

export interface Transfer {
  fromStop: number;
  toStop: number;
  fromRoute?: number;
  toRoute?: number;
  /** 0 recommended, 1 timed, 2 needs `minTime`, 3 not possible */
  type: number;
  minTime?: number;
}

export interface Feed {
  timezone: string;
  agencies: { id?: string; name: string }[];
  stops: Stop[];
  routes: Route[];
  trips: Trip[];
  services: Map<string, Service>;
  /** per trip index: its frequencies (the trip's times are then a template) */
  frequencies: Map<number, Frequency[]>;
  transfers: Transfer[];
}

/** A feed that cannot be imported: what is wrong, file by file and line by line. */
export class GtfsError extends Error {
  constructor(readonly problems: string[]) {
    super(
      `the GTFS feed has ${problems.length === 1 ? "a problem" : `${problems.length} problems`}:\n- ${problems.join("\n- ")}`,
    );
    this.name = "GtfsError";
  }
}

/** The most problems reported; past it, how many more there were. */
const MAX_PROBLEMS = 25;

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

/** "H:MM:SS" (hours may pass 24) as seconds, or undefined when empty; NaN when malformed. */
export function gtfsTime(value: string | undefined): number | undefined {
  if (!value?.trim()) return undefined;
  const m = /^\s*(\d{1,3}):([0-5]\d):([0-5]\d)\s*$/.exec(value);
  return m ? Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]) : NaN;
}

/** "YYYYMMDD" as a number, NaN when it is not a date. */
function gtfsDate(value: string | undefined): number {
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(value?.trim() ?? "");
  if (!m) return NaN;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCMonth() === mo - 1 && date.getUTCDate() === d ? y * 10000 + mo * 100 + d : NaN;
}

/** A row: its required columns (always present), any other, and its line in the file. */
type Row<K extends string = never> = Record<K, string> & Partial<Record<string, string>> & { __line: number };

/** Reads a feed, checking it; throws GtfsError with every problem found. */
export function readFeed(input: string): Feed {
  return parseFeed(feedFiles(input));
}

/** The feed from its files' texts (the tests build feeds this way). */
export function parseFeed(files: Map<string, string>): Feed {
  const problems: string[] = [];
  const problem = (where: string, message: string) => {
    if (problems.length <= MAX_PROBLEMS) problems.push(`${where}: ${message}`);
  };
  const table = <K extends string>(name: string, required: boolean, columns: K[]): Row<K>[] => {
    const text = files.get(name);
    if (text === undefined) {
      if (required) problem(name, "the file is missing");
      return [];
    }
    let header: string[] = [];
    let rows: { record: Record<string, string>; info: { lines: number } }[];
    try {
      rows = parse(text, {
        bom: true,
        columns: (names: string[]) => (header = names.map((h) => h.trim())),
        skip_empty_lines: true,
        relax_column_count: true,
        trim: true,
        info: true,
      });
    } catch (e) {
      problem(name, `not readable as CSV (${(e as Error).message})`);
      return [];
    }
    const missing = columns.filter((c) => !header.includes(c));
    if (missing.length) {
      problem(name, `required column${missing.length > 1 ? "s" : ""} ${missing.join(", ")} missing`);
      return [];
    }
    // Line numbers as an editor shows them (the parser's: the line a record ends on).
    return rows.map(({ record, info }) => Object.assign(record, { __line: info.lines }) as unknown as Row<K>);
  };
  const at = (name: string, row: { __line: number }, field?: string) =>
    `${name} line ${row.__line}${field ? ` (${field})` : ""}`;

  // Agencies: one time zone for the feed (GTFS requires it of every agency).
  const agencyRows = table("agency.txt", true, ["agency_name", "agency_timezone"]);
  const timezones = new Set(agencyRows.map((r) => r.agency_timezone));
  for (const r of agencyRows) {
    if (!IANAZone.isValidZone(r.agency_timezone)) {
      problem(at("agency.txt", r, "agency_timezone"), `'${r.agency_timezone}' is not a time zone`);
    }
  }
  if (timezones.size > 1)
    problem("agency.txt", `agencies in several time zones (${[...timezones].join(", ")})`);
  if (agencyRows.length > 1 && agencyRows.some((r) => !r.agency_id)) {
    problem("agency.txt", "agency_id is required when the feed has several agencies");
  }

  // Stops.
  const stopRows = table("stops.txt", true, ["stop_id"]);
  const stops: Stop[] = [];
  const stopIndex = new Map<string, number>();
  for (const r of stopRows) {
    if (!r.stop_id) {
      problem(at("stops.txt", r, "stop_id"), "empty");
      continue;
    }
    if (stopIndex.has(r.stop_id)) {
      problem(at("stops.txt", r, "stop_id"), `'${r.stop_id}' appears twice`);
      continue;
    }
    const type = r.location_type ? Number(r.location_type) : 0;
    const lat = Number(r.stop_lat);
    const lng = Number(r.stop_lon);
    const located = type <= 2;
    if (located && (!r.stop_lat || !Number.isFinite(lat) || lat < -90 || lat > 90)) {
      problem(at("stops.txt", r, "stop_lat"), `'${r.stop_lat ?? ""}' is not a latitude`);
    }
    if (located && (!r.stop_lon || !Number.isFinite(lng) || lng < -180 || lng > 180)) {
      problem(at("stops.txt", r, "stop_lon"), `'${r.stop_lon ?? ""}' is not a longitude`);
    }
    stopIndex.set(r.stop_id, stops.length);
    stops.push({
      id: r.stop_id,
      name: r.stop_name ?? "",
      lat,
      lng,
      type,
      ...(r.parent_station && { parent: r.parent_station }),
    });
  }

  // Routes.
  const routes: Route[] = [];
  const routeIndex = new Map<string, number>();
  for (const r of table("routes.txt", true, ["route_id", "route_type"])) {
    if (routeIndex.has(r.route_id)) {
      problem(at("routes.txt", r, "route_id"), `'${r.route_id}' appears twice`);
      continue;
    }
    if (!r.route_short_name && !r.route_long_name) {
      problem(at("routes.txt", r), "a route needs route_short_name or route_long_name");
    }
    routeIndex.set(r.route_id, routes.length);
    routes.push({
      id: r.route_id,
      ...(r.agency_id && { agencyId: r.agency_id }),
      shortName: r.route_short_name ?? "",
      longName: r.route_long_name ?? "",
      type: Number(r.route_type),
    });
  }

  // Services: calendar.txt and calendar_dates.txt (at least one of them).
  if (!files.has("calendar.txt") && !files.has("calendar_dates.txt")) {
    problem("calendar.txt", "the feed has neither calendar.txt nor calendar_dates.txt");
  }
  const services = new Map<string, Service>();
  const DAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"] as const;
  for (const r of table("calendar.txt", false, ["service_id", ...DAYS, "start_date", "end_date"])) {
    const start = gtfsDate(r.start_date);
    const end = gtfsDate(r.end_date);
    if (Number.isNaN(start))
      problem(at("calendar.txt", r, "start_date"), `'${r.start_date}' is not a YYYYMMDD date`);
    if (Number.isNaN(end))
      problem(at("calendar.txt", r, "end_date"), `'${r.end_date}' is not a YYYYMMDD date`);
    for (const d of DAYS) {
      if (r[d] !== "0" && r[d] !== "1") problem(at("calendar.txt", r, d), `'${r[d]}' is neither 0 nor 1`);
    }
    if (services.has(r.service_id))
      problem(at("calendar.txt", r, "service_id"), `'${r.service_id}' appears twice`);
    services.set(r.service_id, {
      days: DAYS.map((d) => r[d] === "1"),
      start,
      end,
      added: new Set(),
      removed: new Set(),
    });
  }
  for (const r of table("calendar_dates.txt", false, ["service_id", "date", "exception_type"])) {
    const date = gtfsDate(r.date);
    if (Number.isNaN(date))
      problem(at("calendar_dates.txt", r, "date"), `'${r.date}' is not a YYYYMMDD date`);
    let s = services.get(r.service_id);
    if (!s)
      services.set(
        r.service_id,
        (s = { days: DAYS.map(() => false), start: 0, end: 0, added: new Set(), removed: new Set() }),
      );
    if (r.exception_type === "1") s.added.add(date);
    else if (r.exception_type === "2") s.removed.add(date);
    else
      problem(
        at("calendar_dates.txt", r, "exception_type"),
        `'${r.exception_type}' is neither 1 (added) nor 2 (removed)`,
      );
  }

  // Trips.
  const trips: Trip[] = [];
  const tripIndex = new Map<string, number>();
  for (const r of table("trips.txt", true, ["route_id", "service_id", "trip_id"])) {
    if (tripIndex.has(r.trip_id)) {
      problem(at("trips.txt", r, "trip_id"), `'${r.trip_id}' appears twice`);
      continue;
    }
    const route = routeIndex.get(r.route_id);
    if (route === undefined) problem(at("trips.txt", r, "route_id"), `'${r.route_id}' is not in routes.txt`);
    if (!services.has(r.service_id)) {
      problem(
        at("trips.txt", r, "service_id"),
        `'${r.service_id}' is in neither calendar.txt nor calendar_dates.txt`,
      );
    }
    tripIndex.set(r.trip_id, trips.length);
    trips.push({
      id: r.trip_id,
      route: route ?? 0,
      serviceId: r.service_id,
      ...(r.trip_headsign && { headsign: r.trip_headsign }),
      ...(r.block_id && { blockId: r.block_id }),
      stopTimes: [],
    });
  }

  // Stop times: in stop_sequence order per trip; times between timepoints interpolated.
  const pending = new Map<
    number,
    { seq: number; stop: number; arrival?: number; departure?: number; row: Row<"trip_id"> }[]
  >();
  for (const r of table("stop_times.txt", true, ["trip_id", "stop_id", "stop_sequence"])) {
    const trip = tripIndex.get(r.trip_id);
    const stop = stopIndex.get(r.stop_id);
    if (trip === undefined) problem(at("stop_times.txt", r, "trip_id"), `'${r.trip_id}' is not in trips.txt`);
    if (stop === undefined) problem(at("stop_times.txt", r, "stop_id"), `'${r.stop_id}' is not in stops.txt`);
    else if (stops[stop]!.type !== 0) {
      problem(
        at("stop_times.txt", r, "stop_id"),
        `'${r.stop_id}' is a station, entrance or node (location_type ${stops[stop]!.type}), where no trip calls`,
      );
    }
    const seq = Number(r.stop_sequence);
    if (!Number.isInteger(seq) || seq < 0)
      problem(at("stop_times.txt", r, "stop_sequence"), `'${r.stop_sequence}' is not a whole number`);
    let arrival = gtfsTime(r.arrival_time);
    let departure = gtfsTime(r.departure_time);
    for (const [field, v] of [
      ["arrival_time", arrival],
      ["departure_time", departure],
    ] as const) {
      if (Number.isNaN(v)) problem(at("stop_times.txt", r, field), `'${r[field]}' is not a time (H:MM:SS)`);
    }
    arrival ??= departure;
    departure ??= arrival;
    if (trip === undefined || stop === undefined) continue;
    let list = pending.get(trip);
    if (!list) pending.set(trip, (list = []));
    list.push({ seq, stop, arrival, departure, row: r });
  }
  for (const [t, list] of pending) {
    list.sort((a, b) => a.seq - b.seq);
    const trip = trips[t]!;
    for (let i = 1; i < list.length; i++) {
      if (list[i]!.seq === list[i - 1]!.seq) {
        problem(
          at("stop_times.txt", list[i]!.row, "stop_sequence"),
          `trip '${trip.id}' has stop_sequence ${list[i]!.seq} twice`,
        );
      }
    }
    const first = list[0]!;
    const last = list[list.length - 1]!;
    if (list.length < 2) {
      problem(at("stop_times.txt", first.row), `trip '${trip.id}' calls at fewer than two stops`);
      continue;
    }
    if (first.departure === undefined || last.arrival === undefined) {
      problem(
        at("stop_times.txt", first.departure === undefined ? first.row : last.row),
        `trip '${trip.id}' needs times at its first and last stops`,
      );
      continue;
    }
    // Interpolate the stops between timepoints evenly by their count.
    let known = 0;
    for (let i = 1; i < list.length; i++) {
      if (list[i]!.arrival === undefined) continue;
      const from = list[known]!.departure!;
      const to = list[i]!.arrival!;
      for (let k = known + 1; k < i; k++) {
        const time = Math.round(from + ((to - from) * (k - known)) / (i - known));
        list[k]!.arrival = list[k]!.departure = time;
      }
      known = i;
    }
    let previous = -Infinity;
    for (const st of list) {
      if (st.arrival! < previous || st.departure! < st.arrival!) {
        problem(
          at("stop_times.txt", st.row),
          `trip '${trip.id}' goes back in time at stop_sequence ${st.seq}`,
        );
        break;
      }
      previous = st.departure!;
    }
    trip.stopTimes = list.map((st) => ({ stop: st.stop, arrival: st.arrival!, departure: st.departure! }));
  }
  for (const trip of trips) {
    if (!trip.stopTimes.length && !pending.has(tripIndex.get(trip.id)!)) {
      problem("stop_times.txt", `trip '${trip.id}' has no stop times`);
    }
  }

  // Frequencies: the trip's times are a template repeated every headway from start to end.
  const frequencies = new Map<number, Frequency[]>();
  for (const r of table("frequencies.txt", false, ["trip_id", "start_time", "end_time", "headway_secs"])) {
    const trip = tripIndex.get(r.trip_id);
    const start = gtfsTime(r.start_time);
    const end = gtfsTime(r.end_time);
    const headway = Number(r.headway_secs);
    if (trip === undefined)
      problem(at("frequencies.txt", r, "trip_id"), `'${r.trip_id}' is not in trips.txt`);
    if (start === undefined || Number.isNaN(start))
      problem(at("frequencies.txt", r, "start_time"), `'${r.start_time}' is not a time`);
    if (end === undefined || Number.isNaN(end))
      problem(at("frequencies.txt", r, "end_time"), `'${r.end_time}' is not a time`);
    if (!Number.isInteger(headway) || headway <= 0)
      problem(
        at("frequencies.txt", r, "headway_secs"),
        `'${r.headway_secs}' is not a positive number of seconds`,
      );
    if (
      trip === undefined ||
      start === undefined ||
      end === undefined ||
      !(headway > 0) ||
      Number.isNaN(start + end)
    )
      continue;
    if (end <= start) problem(at("frequencies.txt", r, "end_time"), "ends before it starts");
    let list = frequencies.get(trip);
    if (!list) frequencies.set(trip, (list = []));
    list.push({ start, end, headway });
  }

  // Transfers.
  const transfers: Transfer[] = [];
  for (const r of table("transfers.txt", false, ["from_stop_id", "to_stop_id", "transfer_type"])) {
    const fromStop = stopIndex.get(r.from_stop_id);
    const toStop = stopIndex.get(r.to_stop_id);
    if (fromStop === undefined)
      problem(at("transfers.txt", r, "from_stop_id"), `'${r.from_stop_id}' is not in stops.txt`);
    if (toStop === undefined)
      problem(at("transfers.txt", r, "to_stop_id"), `'${r.to_stop_id}' is not in stops.txt`);
    const route = (field: "from_route_id" | "to_route_id") => {
      if (!r[field]) return undefined;
      const i = routeIndex.get(r[field]);
      if (i === undefined) problem(at("transfers.txt", r, field), `'${r[field]}' is not in routes.txt`);
      return i;
    };
    const [fromRoute, toRoute] = [route("from_route_id"), route("to_route_id")];
    const type = r.transfer_type ? Number(r.transfer_type) : 0;
    if (![0, 1, 2, 3].includes(type))
      problem(at("transfers.txt", r, "transfer_type"), `'${r.transfer_type}' is not 0, 1, 2 or 3`);
    const minTime = r.min_transfer_time ? Number(r.min_transfer_time) : undefined;
    if (type === 2 && !(minTime !== undefined && Number.isFinite(minTime) && minTime >= 0)) {
      problem(
        at("transfers.txt", r, "min_transfer_time"),
        "transfer_type 2 needs a min_transfer_time in seconds",
      );
    }
    if (fromStop === undefined || toStop === undefined) continue;
    transfers.push({
      fromStop,
      toStop,
      ...(fromRoute !== undefined && { fromRoute }),
      ...(toRoute !== undefined && { toRoute }),
      type,
      ...(minTime !== undefined && { minTime }),
    });
  }

  if (problems.length > MAX_PROBLEMS) problems.push(`and more problems after these ${MAX_PROBLEMS}`);
  if (problems.length) throw new GtfsError(problems);
  return {
    timezone: [...timezones][0]!,
    agencies: agencyRows.map((r) => ({ ...(r.agency_id && { id: r.agency_id }), name: r.agency_name })),
    stops,
    routes,
    trips,
    services,
    frequencies,
    transfers,
  };
}
