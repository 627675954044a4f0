import { IANAZone } from "luxon";
import type { FeedFiles } from "./files";

/** agency.txt: the agencies, in one time zone for the feed (GTFS requires it of every agency). */
export function checkAgencies(feed: FeedFiles) {
  const rows = feed.table("agency.txt", true, ["agency_name", "agency_timezone"]);
  const timezones = new Set(rows.map((r) => r.agency_timezone));
  for (const r of rows) {
    if (!IANAZone.isValidZone(r.agency_timezone)) {
      feed.problem(feed.at("agency.txt", r, "agency_timezone"), `'${r.agency_timezone}' is not a time zone`);
    }
  }
  if (timezones.size > 1)
    feed.problem("agency.txt", `agencies in several time zones (${[...timezones].join(", ")})`);
  if (rows.length > 1 && rows.some((r) => !r.agency_id)) {
    feed.problem("agency.txt", "agency_id is required when the feed has several agencies");
  }
  return {
    timezone: [...timezones][0]!,
    agencies: rows.map((r) => ({ ...(r.agency_id && { id: r.agency_id }), name: r.agency_name })),
  };
}
