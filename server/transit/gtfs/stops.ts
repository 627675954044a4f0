import type { FeedFiles } from "./files";
import type { Stop } from "./types";

/** stops.txt: stops, stations and entrances; a stop a trip may call at has a position. */
export function checkStops(feed: FeedFiles) {
  const stops: Stop[] = [];
  const index = new Map<string, number>();
  for (const r of feed.table("stops.txt", true, ["stop_id"])) {
    if (!r.stop_id) {
      feed.problem(feed.at("stops.txt", r, "stop_id"), "empty");
      continue;
    }
    if (index.has(r.stop_id)) {
      feed.problem(feed.at("stops.txt", r, "stop_id"), `'${r.stop_id}' appears twice`);
      continue;
    }
    const type = r.location_type ? Number(r.location_type) : 0;
    const lat = Number(r.stop_lat);
    const lng = Number(r.stop_lon);
    const located = type <= 2;
    if (located && (!r.stop_lat || !Number.isFinite(lat) || lat < -90 || lat > 90)) {
      feed.problem(feed.at("stops.txt", r, "stop_lat"), `'${r.stop_lat ?? ""}' is not a latitude`);
    }
    if (located && (!r.stop_lon || !Number.isFinite(lng) || lng < -180 || lng > 180)) {
      feed.problem(feed.at("stops.txt", r, "stop_lon"), `'${r.stop_lon ?? ""}' is not a longitude`);
    }
    index.set(r.stop_id, stops.length);
    stops.push({
      id: r.stop_id,
      name: r.stop_name ?? "",
      lat,
      lng,
      type,
      ...(r.parent_station && { parent: r.parent_station }),
    });
  }
  return { stops, stopIndex: index };
}
