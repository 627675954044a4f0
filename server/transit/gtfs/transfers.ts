import type { FeedFiles } from "./files";
import type { Transfer } from "./types";

/** transfers.txt: between known stops (and routes), of a known type, type 2 with its minimum time. */
export function checkTransfers(
  feed: FeedFiles,
  stopIndex: Map<string, number>,
  routeIndex: Map<string, number>,
): Transfer[] {
  const transfers: Transfer[] = [];
  for (const r of feed.table("transfers.txt", false, ["from_stop_id", "to_stop_id", "transfer_type"])) {
    const where = (field: string) => feed.at("transfers.txt", r, field);
    const fromStop = stopIndex.get(r.from_stop_id);
    const toStop = stopIndex.get(r.to_stop_id);
    if (fromStop === undefined)
      feed.problem(where("from_stop_id"), `'${r.from_stop_id}' is not in stops.txt`);
    if (toStop === undefined) feed.problem(where("to_stop_id"), `'${r.to_stop_id}' is not in stops.txt`);
    const route = (field: "from_route_id" | "to_route_id") => {
      if (!r[field]) return undefined;
      const i = routeIndex.get(r[field]);
      if (i === undefined) feed.problem(where(field), `'${r[field]}' is not in routes.txt`);
      return i;
    };
    const [fromRoute, toRoute] = [route("from_route_id"), route("to_route_id")];
    const type = r.transfer_type ? Number(r.transfer_type) : 0;
    if (![0, 1, 2, 3].includes(type))
      feed.problem(where("transfer_type"), `'${r.transfer_type}' is not 0, 1, 2 or 3`);
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
      type,
      ...(minTime !== undefined && { minTime }),
    });
  }
  return transfers;
}
