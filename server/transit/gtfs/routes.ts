import type { FeedFiles } from "./files";
import type { Route } from "./types";

/** routes.txt: each route once, with a short or a long name. */
export function checkRoutes(feed: FeedFiles) {
  const routes: Route[] = [];
  const index = new Map<string, number>();
  for (const r of feed.table("routes.txt", true, ["route_id", "route_type"])) {
    if (index.has(r.route_id)) {
      feed.problem(feed.at("routes.txt", r, "route_id"), `'${r.route_id}' appears twice`);
      continue;
    }
    if (!r.route_short_name && !r.route_long_name) {
      feed.problem(feed.at("routes.txt", r), "a route needs route_short_name or route_long_name");
    }
    index.set(r.route_id, routes.length);
    routes.push({
      id: r.route_id,
      ...(r.agency_id && { agencyId: r.agency_id }),
      shortName: r.route_short_name ?? "",
      longName: r.route_long_name ?? "",
      type: Number(r.route_type),
    });
  }
  return { routes, routeIndex: index };
}
