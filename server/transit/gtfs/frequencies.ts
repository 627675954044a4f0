import { type FeedFiles, gtfsTime } from "./files";
import type { Frequency } from "./types";

/** frequencies.txt: a trip's times are a template repeated every headway from start to end. */
export function checkFrequencies(feed: FeedFiles, tripIndex: Map<string, number>) {
  const frequencies = new Map<number, Frequency[]>();
  for (const r of feed.table("frequencies.txt", false, [
    "trip_id",
    "start_time",
    "end_time",
    "headway_secs",
  ])) {
    const where = (field: string) => feed.at("frequencies.txt", r, field);
    const trip = tripIndex.get(r.trip_id);
    const start = gtfsTime(r.start_time);
    const end = gtfsTime(r.end_time);
    const headway = Number(r.headway_secs);
    if (trip === undefined) feed.problem(where("trip_id"), `'${r.trip_id}' is not in trips.txt`);
    if (start === undefined || Number.isNaN(start))
      feed.problem(where("start_time"), `'${r.start_time}' is not a time`);
    if (end === undefined || Number.isNaN(end))
      feed.problem(where("end_time"), `'${r.end_time}' is not a time`);
    if (!Number.isInteger(headway) || headway <= 0)
      feed.problem(where("headway_secs"), `'${r.headway_secs}' is not a positive number of seconds`);
    if (
      trip === undefined ||
      start === undefined ||
      end === undefined ||
      !(headway > 0) ||
      Number.isNaN(start + end)
    )
      continue;
    if (end <= start) feed.problem(where("end_time"), "ends before it starts");
    let list = frequencies.get(trip);
    if (!list) frequencies.set(trip, (list = []));
    list.push({ start, end, headway });
  }
  return frequencies;
}
