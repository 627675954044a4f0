import { type FeedFiles, type Row, gtfsTime } from "./files";
import type { Stop, Trip } from "./types";

interface Call {
  seq: number;
  stop: number;
  arrival?: number;
  departure?: number;
  pickup: number;
  dropOff: number;
  row: Row<"trip_id">;
}

/**
 * stop_times.txt: each trip's calls in stop_sequence order, at stops (not stations), with the
 * times between timepoints interpolated; sets `stopTimes` on the trips.
 */
export function checkStopTimes(
  feed: FeedFiles,
  { trips, tripIndex }: { trips: Trip[]; tripIndex: Map<string, number> },
  { stops, stopIndex }: { stops: Stop[]; stopIndex: Map<string, number> },
) {
  const calls = new Map<number, Call[]>();
  for (const r of feed.table("stop_times.txt", true, ["trip_id", "stop_id", "stop_sequence"])) {
    const trip = tripIndex.get(r.trip_id);
    const stop = stopIndex.get(r.stop_id);
    const where = (field?: string) => feed.at("stop_times.txt", r, field);
    if (trip === undefined) feed.problem(where("trip_id"), `'${r.trip_id}' is not in trips.txt`);
    if (stop === undefined) feed.problem(where("stop_id"), `'${r.stop_id}' is not in stops.txt`);
    else if (stops[stop]!.type !== 0) {
      feed.problem(
        where("stop_id"),
        `'${r.stop_id}' is a station, entrance or node (location_type ${stops[stop]!.type}), where no trip calls`,
      );
    }
    const seq = Number(r.stop_sequence);
    if (!Number.isInteger(seq) || seq < 0)
      feed.problem(where("stop_sequence"), `'${r.stop_sequence}' is not a whole number`);
    let arrival = gtfsTime(r.arrival_time);
    let departure = gtfsTime(r.departure_time);
    for (const [field, v] of [
      ["arrival_time", arrival],
      ["departure_time", departure],
    ] as const) {
      if (Number.isNaN(v)) feed.problem(where(field), `'${r[field]}' is not a time (H:MM:SS)`);
    }
    arrival ??= departure;
    departure ??= arrival;
    const kind = (field: "pickup_type" | "drop_off_type") => {
      const v = r[field] ? Number(r[field]) : 0;
      if (![0, 1, 2, 3].includes(v)) {
        feed.problem(where(field), `'${r[field]}' is not 0, 1, 2 or 3`);
        return 0;
      }
      return v;
    };
    const pickup = kind("pickup_type");
    const dropOff = kind("drop_off_type");
    if (trip === undefined || stop === undefined) continue;
    let list = calls.get(trip);
    if (!list) calls.set(trip, (list = []));
    list.push({ seq, stop, arrival, departure, pickup, dropOff, row: r });
  }
  for (const [t, list] of calls) timeTrip(feed, trips[t]!, list);
  for (const trip of trips) {
    if (!trip.stopTimes.length && !calls.has(tripIndex.get(trip.id)!)) {
      feed.problem("stop_times.txt", `trip '${trip.id}' has no stop times`);
    }
  }
}

/** One trip's calls: sorted, checked, interpolated, and set as its stop times. */
function timeTrip(feed: FeedFiles, trip: Trip, list: Call[]) {
  list.sort((a, b) => a.seq - b.seq);
  for (let i = 1; i < list.length; i++) {
    if (list[i]!.seq === list[i - 1]!.seq) {
      feed.problem(
        feed.at("stop_times.txt", list[i]!.row, "stop_sequence"),
        `trip '${trip.id}' has stop_sequence ${list[i]!.seq} twice`,
      );
    }
  }
  const first = list[0]!;
  const last = list[list.length - 1]!;
  if (list.length < 2) {
    feed.problem(feed.at("stop_times.txt", first.row), `trip '${trip.id}' calls at fewer than two stops`);
    return;
  }
  if (first.departure === undefined || last.arrival === undefined) {
    feed.problem(
      feed.at("stop_times.txt", first.departure === undefined ? first.row : last.row),
      `trip '${trip.id}' needs times at its first and last stops`,
    );
    return;
  }
  interpolate(list);
  let previous = -Infinity;
  for (const st of list) {
    if (st.arrival! < previous || st.departure! < st.arrival!) {
      feed.problem(
        feed.at("stop_times.txt", st.row),
        `trip '${trip.id}' goes back in time at stop_sequence ${st.seq}`,
      );
      break;
    }
    previous = st.departure!;
  }
  trip.stopTimes = list.map((st) => ({
    stop: st.stop,
    arrival: st.arrival!,
    departure: st.departure!,
    pickup: st.pickup,
    dropOff: st.dropOff,
  }));
}

/** Times for the calls between timepoints, spread evenly by their count. */
function interpolate(list: Call[]) {
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
}
