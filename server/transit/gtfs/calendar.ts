import { type FeedFiles, gtfsDate } from "./files";
import type { Service } from "./types";

const DAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"] as const;

/** calendar.txt and calendar_dates.txt (at least one of them): the services by id. */
export function checkCalendar(feed: FeedFiles): Map<string, Service> {
  if (!feed.has("calendar.txt") && !feed.has("calendar_dates.txt")) {
    feed.problem("calendar.txt", "the feed has neither calendar.txt nor calendar_dates.txt");
  }
  const services = new Map<string, Service>();
  for (const r of feed.table("calendar.txt", false, ["service_id", ...DAYS, "start_date", "end_date"])) {
    const start = gtfsDate(r.start_date);
    const end = gtfsDate(r.end_date);
    if (Number.isNaN(start))
      feed.problem(feed.at("calendar.txt", r, "start_date"), `'${r.start_date}' is not a YYYYMMDD date`);
    if (Number.isNaN(end))
      feed.problem(feed.at("calendar.txt", r, "end_date"), `'${r.end_date}' is not a YYYYMMDD date`);
    for (const d of DAYS) {
      if (r[d] !== "0" && r[d] !== "1")
        feed.problem(feed.at("calendar.txt", r, d), `'${r[d]}' is neither 0 nor 1`);
    }
    if (services.has(r.service_id))
      feed.problem(feed.at("calendar.txt", r, "service_id"), `'${r.service_id}' appears twice`);
    services.set(r.service_id, {
      days: DAYS.map((d) => r[d] === "1"),
      start,
      end,
      added: new Set(),
      removed: new Set(),
    });
  }
  checkCalendarDates(feed, services);
  return services;
}

/** calendar_dates.txt: dates added to or removed from a service (one made for it if need be). */
function checkCalendarDates(feed: FeedFiles, services: Map<string, Service>) {
  for (const r of feed.table("calendar_dates.txt", false, ["service_id", "date", "exception_type"])) {
    const date = gtfsDate(r.date);
    if (Number.isNaN(date))
      feed.problem(feed.at("calendar_dates.txt", r, "date"), `'${r.date}' is not a YYYYMMDD date`);
    let s = services.get(r.service_id);
    if (!s)
      services.set(
        r.service_id,
        (s = { days: DAYS.map(() => false), start: 0, end: 0, added: new Set(), removed: new Set() }),
      );
    if (r.exception_type === "1") s.added.add(date);
    else if (r.exception_type === "2") s.removed.add(date);
    else
      feed.problem(
        feed.at("calendar_dates.txt", r, "exception_type"),
        `'${r.exception_type}' is neither 1 (added) nor 2 (removed)`,
      );
  }
}
