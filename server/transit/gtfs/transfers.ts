import type { FeedFiles } from "./files";
import type { InSeat, Transfer } from "./types";

/**
 * transfers.txt: rules between known stops, for some routes or trips (0 recommended, 1 timed,
 * 2 with its minimum time, 3 not possible), and, since 2022, between two trips one vehicle runs
 * one after the other (4 the rider may stay seated, 5 must get off; both name the two trips,
 * their stops are optional).
 */
export function checkTransfers(
  feed: FeedFiles,
  stopIndex: Map<string, number>,
  routeIndex: Map<string, number>,
  tripIndex: Map<string, number>,
): { transfers: Transfer[]; inSeat: InSeat[] } {
  const transfers: Transfer[] = [];
  const inSeat: InSeat[] = [];
  for (const r of feed.table("transfers.txt", false, ["transfer_type"])) {
    const where = (field: string) => feed.at("transfers.txt", r, field);
    const type = r.transfer_type ? Number(r.transfer_type) : 0;
    if (![0, 1, 2, 3, 4, 5].includes(type)) {
      feed.problem(where("transfer_type"), `'${r.transfer_type}' is not 0, 1, 2, 3, 4 or 5`);
      continue;
    }
    const known = (field: string, index: Map<string, number>, file: string) => {
      if (!r[field]) return undefined;
      const i = index.get(r[field]);
      if (i === undefined) feed.problem(where(field), `'${r[field]}' is not in ${file}`);
      return i;
    };
    const fromTrip = known("from_trip_id", tripIndex, "trips.txt");
    const toTrip = known("to_trip_id", tripIndex, "trips.txt");
    const seated = type === 4 || type === 5;
    for (const field of ["from_stop_id", "to_stop_id"] as const) {
      if (!r[field] && !seated) feed.problem(where(field), "is required (but for transfer_type 4 and 5)");
    }
    const fromStop = known("from_stop_id", stopIndex, "stops.txt");
    const toStop = known("to_stop_id", stopIndex, "stops.txt");
    const fromRoute = known("from_route_id", routeIndex, "routes.txt");
    const toRoute = known("to_route_id", routeIndex, "routes.txt");
    if (seated) {
      for (const field of ["from_trip_id", "to_trip_id"] as const) {
        if (!r[field]) feed.problem(where(field), `is required for transfer_type ${type}`);
      }
      if (fromTrip !== undefined && toTrip !== undefined)
        inSeat.push({ fromTrip, toTrip, allowed: type === 4 });
      continue;
    }
    const minTime = r.min_transfer_time ? Number(r.min_transfer_time) : undefined;
    if (type === 2 && !(minTime !== undefined && Number.isFinite(minTime) && minTime >= 0)) {
      feed.problem(where("min_transfer_time"), "transfer_type 2 needs a min_transfer_time in seconds");
    }
    if (fromStop === undefined || toStop === undefined) continue;
    transfers.push({
      fromStop,
      toStop,
      ...(fromRoute !== undefined && { fromRoute }),
      ...(toRoute !== undefined && { toRoute }),
      ...(fromTrip !== undefined && { fromTrip }),
      ...(toTrip !== undefined && { toTrip }),
      type,
      ...(minTime !== undefined && { minTime }),
    });
  }
  return { transfers, inSeat };
}
