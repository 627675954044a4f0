import { DateTime } from "luxon";
import type { Service } from "./gtfs";

/** Service days: which dates a service runs on, and where their times count from. */

/** Seconds as H:MM:SS (hours past 24 kept). */
export function clock(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return `${h}:${String(m).padStart(2, "0")}:${String(s).padStart(2, "0")}`;
}

/** Whether a service runs on a service date (yyyymmdd): calendar_dates first, then calendar.txt. */
export function runsOn(service: Service, date: number): boolean {
  if (service.removed.has(date)) return false;
  if (service.added.has(date)) return true;
  if (!service.start || date < service.start || date > service.end) return false;
  const d = new Date(Date.UTC(Math.floor(date / 10000), (Math.floor(date / 100) % 100) - 1, date % 100));
  return service.days[(d.getUTCDay() + 6) % 7]!;
}

/**
 * Where a service date's times count from, as Unix seconds: noon minus 12 hours in the feed's
 * time zone (GTFS), which is midnight except on the days the clocks change.
 */
export function serviceDayStart(timezone: string, date: number): number {
  const noon = DateTime.fromObject(
    { year: Math.floor(date / 10000), month: Math.floor(date / 100) % 100, day: date % 100, hour: 12 },
    { zone: timezone },
  );
  return noon.toSeconds() - 12 * 3600;
}

/** The service date (yyyymmdd) a Unix time falls on in the time zone, shifted by `days`. */
export function serviceDateOf(timezone: string, unixSeconds: number, days = 0): number {
  const d = DateTime.fromSeconds(unixSeconds, { zone: timezone }).plus({ days });
  return d.year * 10000 + d.month * 100 + d.day;
}
