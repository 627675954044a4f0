import type { FeedFiles } from "./files";
import type { Service, Trip } from "./types";

/** trips.txt: each trip once, on a known route and service. Stop times come later (./stop-times.ts). */
export function checkTrips(feed: FeedFiles, routeIndex: Map<string, number>, services: Map<string, Service>) {
  const trips: Trip[] = [];
  const index = new Map<string, number>();
  for (const r of feed.table("trips.txt", true, ["route_id", "service_id", "trip_id"])) {
    if (index.has(r.trip_id)) {
      feed.problem(feed.at("trips.txt", r, "trip_id"), `'${r.trip_id}' appears twice`);
      continue;
    }
    const route = routeIndex.get(r.route_id);
    if (route === undefined)
      feed.problem(feed.at("trips.txt", r, "route_id"), `'${r.route_id}' is not in routes.txt`);
    if (!services.has(r.service_id)) {
      feed.problem(
        feed.at("trips.txt", r, "service_id"),
        `'${r.service_id}' is in neither calendar.txt nor calendar_dates.txt`,
      );
    }
    index.set(r.trip_id, trips.length);
    trips.push({
      id: r.trip_id,
      route: route ?? 0,
      serviceId: r.service_id,
      ...(r.trip_headsign && { headsign: r.trip_headsign }),
      ...(r.block_id && { blockId: r.block_id }),
      stopTimes: [],
    });
  }
  return { trips, tripIndex: index };
}
