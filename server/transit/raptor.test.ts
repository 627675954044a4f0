import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { GtfsError, parseFeed, readFeed } from "./gtfs";
import { earliestArrival } from "./raptor";
import { type Timetable, buildTimetable, clock, serviceDayStart } from "./timetable";

/**
 * RAPTOR on feeds the tests write (each case the issue names: a transfer missed by one minute,
 * a trip on some days only, a frequency at its headway boundaries, a trip past midnight, the day
 * the clocks change), and on the shared sample feed, checked by hand against its
 * stop_times.txt, frequencies.txt and transfers.txt.
 */

type Rows = Record<string, string>[];

/** A feed from tables of rows (the header from the first row's keys); agency and calendar defaults. */
function feed(tables: Record<string, Rows>): Timetable {
  const files = new Map<string, string>();
  const all: Record<string, Rows> = {
    "agency.txt": [{ agency_id: "A", agency_name: "Test Transit", agency_timezone: "America/Los_Angeles" }],
    "calendar.txt": [
      {
        service_id: "DAILY",
        monday: "1",
        tuesday: "1",
        wednesday: "1",
        thursday: "1",
        friday: "1",
        saturday: "1",
        sunday: "1",
        start_date: "20260101",
        end_date: "20261231",
      },
    ],
    ...tables,
  };
  for (const [name, rows] of Object.entries(all)) {
    const header = Object.keys(rows[0] ?? {});
    files.set(
      name,
      [header.join(","), ...rows.map((r) => header.map((h) => r[h] ?? "").join(","))].join("\n"),
    );
  }
  return buildTimetable(parseFeed(files));
}

const stops = (...ids: string[]): Rows =>
  ids.map((id, i) => ({ stop_id: id, stop_name: id, stop_lat: String(36 + i * 0.01), stop_lon: "-116" }));
const routes = (...ids: string[]): Rows =>
  ids.map((id) => ({ route_id: id, route_short_name: id, route_type: "3" }));
const trip = (route: string, id: string, service = "DAILY", block = ""): Record<string, string> => ({
  route_id: route,
  service_id: service,
  trip_id: id,
  block_id: block,
});
/** A trip's calls: [stop, time] pairs (arrival = departure). */
const calls = (id: string, ...list: [string, string][]): Rows =>
  list.map(([stop, time], i) => ({
    trip_id: id,
    arrival_time: time,
    departure_time: time,
    stop_id: stop,
    stop_sequence: String(i + 1),
  }));

/** The earliest arrival from stop `from` to stop `to`, leaving at a local date and time: "H:MM" of that day, or undefined. */
function arrive(tt: Timetable, from: string, to: string, date: number, time: string) {
  const index = (id: string) => tt.stops.findIndex((s) => s.id === id);
  const [h, m] = time.split(":").map(Number) as [number, number];
  const start = serviceDayStart(tt.timezone, date);
  const it = earliestArrival(
    tt,
    [{ stop: index(from), seconds: 0 }],
    [{ stop: index(to), seconds: 0 }],
    start + h * 3600 + m * 60,
  );
  return (
    it && {
      at: clock(it.arrival - start),
      itinerary: it,
      trips: it.legs.flatMap((l) => (l.kind === "ride" ? [tt.tripId[l.trip]] : [])),
    }
  );
}

describe("RAPTOR on written feeds", () => {
  it("misses a transfer by one minute when transfers.txt asks five, and takes the next", () => {
    const tt = feed({
      "stops.txt": stops("A", "X", "B"),
      "routes.txt": routes("R1", "R2"),
      "trips.txt": [trip("R1", "in"), trip("R2", "early"), trip("R2", "late")],
      "stop_times.txt": [
        ...calls("in", ["A", "8:00:00"], ["X", "8:10:00"]),
        ...calls("early", ["X", "8:14:00"], ["B", "8:30:00"]),
        ...calls("late", ["X", "8:40:00"], ["B", "8:56:00"]),
      ],
      "transfers.txt": [{ from_stop_id: "X", to_stop_id: "X", transfer_type: "2", min_transfer_time: "300" }],
    });
    const r = arrive(tt, "A", "B", 20260601, "7:50")!;
    expect(r.at).toBe("8:56:00");
    expect(r.trips).toEqual(["in", "late"]);
    // Without the rule the 8:14 is caught.
    const loose = feed({
      "stops.txt": stops("A", "X", "B"),
      "routes.txt": routes("R1", "R2"),
      "trips.txt": [trip("R1", "in"), trip("R2", "early")],
      "stop_times.txt": [
        ...calls("in", ["A", "8:00:00"], ["X", "8:10:00"]),
        ...calls("early", ["X", "8:14:00"], ["B", "8:30:00"]),
      ],
    });
    expect(arrive(loose, "A", "B", 20260601, "7:50")!.at).toBe("8:30:00");
  });

  it("runs trips only on their service days: weekdays, removed and added dates", () => {
    const tt = feed({
      "stops.txt": stops("A", "B"),
      "routes.txt": routes("R"),
      "calendar.txt": [
        {
          service_id: "WEEK",
          monday: "1",
          tuesday: "1",
          wednesday: "1",
          thursday: "1",
          friday: "1",
          saturday: "0",
          sunday: "0",
          start_date: "20260101",
          end_date: "20261231",
        },
      ],
      "calendar_dates.txt": [
        { service_id: "WEEK", date: "20260603", exception_type: "2" }, // a Wednesday off
        { service_id: "WEEK", date: "20260606", exception_type: "1" }, // a Saturday on
      ],
      "trips.txt": [trip("R", "t", "WEEK")],
      "stop_times.txt": calls("t", ["A", "9:00:00"], ["B", "9:30:00"]),
    });
    expect(arrive(tt, "A", "B", 20260602, "8:00")!.at).toBe("9:30:00"); // Tuesday
    expect(arrive(tt, "A", "B", 20260603, "8:00")!.at).toBe("33:30:00"); // Wednesday off: Thursday's
    expect(arrive(tt, "A", "B", 20260606, "8:00")!.at).toBe("9:30:00"); // the Saturday added
    expect(arrive(tt, "A", "B", 20260607, "8:00")!.at).toBe("33:30:00"); // Sunday: Monday's
  });

  it("runs a frequency at its exact headways, the end excluded", () => {
    const tt = feed({
      "stops.txt": stops("A", "B"),
      "routes.txt": routes("R"),
      "trips.txt": [trip("R", "f")],
      "stop_times.txt": calls("f", ["A", "0:00:00"], ["B", "0:10:00"]),
      "frequencies.txt": [{ trip_id: "f", start_time: "6:00:00", end_time: "7:00:00", headway_secs: "900" }],
    });
    expect(arrive(tt, "A", "B", 20260601, "5:00")!.at).toBe("6:10:00");
    expect(arrive(tt, "A", "B", 20260601, "6:45")!.at).toBe("6:55:00"); // the last, at 6:45
    expect(arrive(tt, "A", "B", 20260601, "6:46")!.at).toBe("30:10:00"); // none at 7:00: tomorrow's first
    expect(arrive(tt, "A", "B", 20260601, "6:15")!.trips).toEqual(["f@6:15:00"]);
  });

  it("takes yesterday's trip past midnight, and waits for tomorrow after the last", () => {
    const tt = feed({
      "stops.txt": stops("A", "B"),
      "routes.txt": routes("R"),
      "trips.txt": [trip("R", "night"), trip("R", "morning")],
      "stop_times.txt": [
        ...calls("night", ["A", "25:10:00"], ["B", "25:40:00"]),
        ...calls("morning", ["A", "6:00:00"], ["B", "6:30:00"]),
      ],
    });
    // 00:30 on 2 June: the trip of 1 June's service at 25:10 leaves at 01:10.
    const r = arrive(tt, "A", "B", 20260602, "0:30")!;
    expect(r.at).toBe("1:40:00");
    expect(r.trips).toEqual(["night"]);
    expect(arrive(tt, "A", "B", 20260602, "1:20")!.at).toBe("6:30:00");
  });

  it("counts times from noon minus 12 hours on the day the clocks go forward", () => {
    // 8 March 2026 in Los Angeles: 02:00 PST becomes 03:00 PDT.
    const tt = feed({
      "stops.txt": stops("A", "B"),
      "routes.txt": routes("R"),
      "trips.txt": [trip("R", "t")],
      "stop_times.txt": calls("t", ["A", "8:00:00"], ["B", "8:30:00"]),
    });
    const start = serviceDayStart("America/Los_Angeles", 20260308);
    // Noon minus 12 hours is 23:00 PST the evening before, so 8:00:00 is 08:00 PDT (15:00 UTC).
    expect(new Date(start * 1000).toISOString()).toBe("2026-03-08T07:00:00.000Z");
    const r = arrive(tt, "A", "B", 20260308, "7:00")!;
    expect(new Date(r.itinerary.legs.find((l) => l.kind === "ride")!.departure * 1000).toISOString()).toBe(
      "2026-03-08T15:00:00.000Z",
    );
  });

  it("stays seated through a block, without the transfer time", () => {
    const tt = feed({
      "stops.txt": stops("A", "X", "B"),
      "routes.txt": routes("R1", "R2"),
      "trips.txt": [trip("R1", "first", "DAILY", "b1"), trip("R2", "second", "DAILY", "b1")],
      "stop_times.txt": [
        ...calls("first", ["A", "8:00:00"], ["X", "8:10:00"]),
        ...calls("second", ["X", "8:10:00"], ["B", "8:40:00"]),
      ],
      "transfers.txt": [{ from_stop_id: "X", to_stop_id: "X", transfer_type: "2", min_transfer_time: "600" }],
    });
    const r = arrive(tt, "A", "B", 20260601, "7:55")!;
    expect(r.at).toBe("8:40:00");
    expect(
      r.itinerary.legs.filter((l) => l.kind === "ride").map((l) => l.kind === "ride" && !!l.seated),
    ).toEqual([false, true]);
  });

  it("refuses a broken feed, saying where", () => {
    const broken = new Map([
      ["agency.txt", "agency_name,agency_timezone\nX,Mars/Olympus"],
      [
        "stops.txt",
        "stop_id,stop_lat,stop_lon,location_type\nA,36,-116,\nA,36,-116,\nB,91,-116,\nST,36,-116,1",
      ],
      ["routes.txt", "route_id,route_short_name,route_type\nR,1,3"],
      ["trips.txt", "route_id,service_id,trip_id\nR,NOPE,t\nQ,NOPE,u"],
      [
        "stop_times.txt",
        "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nt,8:00:00,8:00:00,A,1\nt,7:00:00,7:00:00,C,2\nt,8:3O:00,,A,3\nt,9:00:00,9:00:00,ST,4",
      ],
    ]);
    let error: GtfsError | undefined;
    try {
      parseFeed(broken);
    } catch (e) {
      error = e as GtfsError;
    }
    expect(error).toBeInstanceOf(GtfsError);
    const text = error!.problems.join("\n");
    expect(text).toMatch(/agency\.txt line 2 \(agency_timezone\): 'Mars\/Olympus' is not a time zone/);
    expect(text).toMatch(/stops\.txt line 3 \(stop_id\): 'A' appears twice/);
    expect(text).toMatch(/stops\.txt line 4 \(stop_lat\): '91' is not a latitude/);
    expect(text).toMatch(/calendar\.txt: the feed has neither calendar\.txt nor calendar_dates\.txt/);
    expect(text).toMatch(/trips\.txt line 3 \(route_id\): 'Q' is not in routes\.txt/);
    expect(text).toMatch(/stop_times\.txt line 3 \(stop_id\): 'C' is not in stops\.txt/);
    expect(text).toMatch(/stop_times\.txt line 4 \(arrival_time\): '8:3O:00' is not a time/);
    expect(text).toMatch(/stop_times\.txt line 5 \(stop_id\): 'ST' is a station/);
  });
});

const sample = path.resolve("../shared/data/gtfs/sample-feed");

describe.runIf(existsSync(sample))("RAPTOR on the shared sample feed (checked by hand)", () => {
  const tt = existsSync(sample) ? buildTimetable(readFeed(sample)) : undefined!;
  // 2 June 2008 is a Monday (FULLW, WEEK, WEEK_SUN run); 7 June a Saturday (FULLW, WE, SAT).
  it("changes at the airport in 10 minutes onto AB, where a generic 11 would miss it", () => {
    // STBA leaves Stagecoach every 30 min from 6:00 and reaches the airport 20 min later; the
    // airport's transfers: 660 s in general, 0 onto route AB, 1200 off route AB.
    const r = arrive(tt, "STAGECOACH", "BULLFROG", 20080602, "7:25")!;
    expect(r.trips).toEqual(["STBA@7:30:00", "AB1"]); // airport 7:50, AB1 8:00
    expect(r.at).toBe("8:10:00");
  });

  it("stays seated from AB1 into BFC1 (block 1), ahead of the direct ABBFC1", () => {
    const r = arrive(tt, "BEATTY_AIRPORT", "FUR_CREEK_RES", 20080602, "7:55")!;
    expect(r.at).toBe("9:20:00"); // ABBFC1 would arrive at 9:30
    expect(r.trips).toEqual(["AB1", "BFC1"]);
  });

  it("takes 20 minutes off route AB at the airport: AB2 (12:15) then AAMV3 (13:00) on a Saturday", () => {
    const r = arrive(tt, "BULLFROG", "AMV", 20080607, "12:00")!;
    expect(r.trips).toEqual(["AB2", "AAMV3"]);
    expect(r.at).toBe("14:00:00");
  });

  it("runs the weekend-only trips on their days", () => {
    // Saturday: AAMV3 at 13:00, arriving 14:00. Monday (no AAMV): to Furnace Creek, then
    // FUNNY_BLOCK_FCAMV1 at 21:00, arriving 22:00.
    expect(arrive(tt, "BEATTY_AIRPORT", "AMV", 20080607, "12:00")!.at).toBe("14:00:00");
    const monday = arrive(tt, "BEATTY_AIRPORT", "AMV", 20080602, "12:00")!;
    expect(monday.at).toBe("22:00:00");
    expect(monday.trips.at(-1)).toBe("FUNNY_BLOCK_FCAMV1");
  });

  it("waits for the next service day after the last departure", () => {
    const r = arrive(tt, "BEATTY_AIRPORT", "FUR_CREEK_RES", 20080602, "23:00")!;
    expect(r.at).toBe("33:20:00"); // Tuesday 9:20, by AB1 and BFC1
  });

  it("rides the City loop at its headways", () => {
    // CITY1 every 10 min from 8:00 to 9:59:59; NADAV is 12 min from Stagecoach, EMSI 26.
    expect(arrive(tt, "NADAV", "EMSI", 20080602, "9:55")!.trips).toEqual(["CITY1@9:50:00"]);
    expect(arrive(tt, "NADAV", "EMSI", 20080602, "9:55")!.at).toBe("10:16:00");
    // The 9:50 leaves NADAV at 10:04; after it, the 10:00 (every 30 min from 10:00) at 10:14.
    expect(arrive(tt, "NADAV", "EMSI", 20080602, "10:03")!.trips).toEqual(["CITY1@9:50:00"]);
    expect(arrive(tt, "NADAV", "EMSI", 20080602, "10:05")!.trips).toEqual(["CITY1@10:00:00"]);
    expect(arrive(tt, "NADAV", "EMSI", 20080602, "10:05")!.at).toBe("10:26:00");
  });
});

if (!existsSync(sample))
  console.warn(`[raptor.test] ${sample} is absent: the sample feed checks did not run.`);
