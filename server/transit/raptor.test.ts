import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { GtfsError, parseFeed, readFeed } from "./gtfs";
import { earliestArrival, latestEarliestArrival } from "./raptor";
import { type Timetable } from "./timetable";
import { buildTimetable } from "./timetable-build";
import { clock, serviceDayStart } from "./service-days";

/**
 * RAPTOR on feeds the tests write (each case the issue names: a transfer missed by one minute,
 * a trip on some days only, a frequency at its headway boundaries, a trip past midnight, the day
 * the clocks change), and on the shared sample feed, checked by hand against its
 * stop_times.txt, frequencies.txt and transfers.txt.
 */

type Rows = Record<string, string>[];

/** A feed from tables of rows (the header: every key of the rows); agency and calendar defaults. */
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
    const header = [...new Set(rows.flatMap((r) => Object.keys(r)))];
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
  it("walks the feed's footpath from where the rider starts (a passageway to the next station)", () => {
    const tt = feed({
      "stops.txt": stops("A", "B", "C"),
      "routes.txt": routes("R"),
      "trips.txt": [trip("R", "from-b")],
      "stop_times.txt": calls("from-b", ["B", "8:10:00"], ["C", "8:30:00"]),
      "transfers.txt": [{ from_stop_id: "A", to_stop_id: "B", transfer_type: "2", min_transfer_time: "300" }],
    });
    // From A at 8:00: five minutes to B, the 8:10 there. Before, only a vehicle could start a journey.
    expect(arrive(tt, "A", "C", 20260504, "8:00")).toMatchObject({ at: "8:30:00", trips: ["from-b"] });
    // Too late for the walk and the 8:10: the next day's.
    expect(arrive(tt, "A", "C", 20260504, "8:06")?.at).toBe("32:30:00");
    const legs = arrive(tt, "A", "C", 20260504, "8:00")!.itinerary.legs;
    expect(legs.map((l) => l.kind)).toContain("walk");
  });

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

  it("honours a trip-to-trip transfer between two different stops, for those trips only", () => {
    // "in" reaches X at 8:10; "onward" leaves Y, a platform across the street, at 8:13. No
    // footpath joins X and Y: the rule is the only way across, and only off "in".
    const base = {
      "stops.txt": stops("A", "C", "X", "Y", "B"),
      "routes.txt": routes("R1", "R2", "R3"),
      "trips.txt": [trip("R1", "in"), trip("R3", "other"), trip("R2", "onward"), trip("R2", "later")],
      "stop_times.txt": [
        ...calls("in", ["A", "8:00:00"], ["X", "8:10:00"]),
        ...calls("other", ["C", "8:00:00"], ["X", "8:10:00"]),
        ...calls("onward", ["Y", "8:13:00"], ["B", "8:30:00"]),
        ...calls("later", ["Y", "8:43:00"], ["B", "9:00:00"]),
      ],
    };
    const link = (extra: Record<string, string>) => ({ from_stop_id: "X", to_stop_id: "Y", ...extra });
    const timed = feed({
      ...base,
      "transfers.txt": [
        link({ transfer_type: "2", min_transfer_time: "120", from_trip_id: "in", to_trip_id: "onward" }),
      ],
    });
    expect(arrive(timed, "A", "B", 20260601, "7:50")).toMatchObject({
      at: "8:30:00",
      trips: ["in", "onward"],
    });
    const legs = arrive(timed, "A", "B", 20260601, "7:50")!.itinerary.legs;
    expect(legs.map((l) => l.kind)).toEqual(["walk", "ride", "walk", "ride", "walk"]);
    // Off another trip, nothing crosses to Y.
    expect(arrive(timed, "C", "B", 20260601, "7:50")).toBeUndefined();
    // Five minutes asked: "onward" is missed, and no rule lets the rider onto "later".
    const slow = feed({
      ...base,
      "transfers.txt": [
        link({ transfer_type: "2", min_transfer_time: "300", from_trip_id: "in", to_trip_id: "onward" }),
      ],
    });
    expect(arrive(slow, "A", "B", 20260601, "7:50")).toMatchObject({
      at: "32:30:00",
      trips: ["in", "onward"],
    });
    // A route pair: off R1 at X onto any R2 at Y, in two minutes.
    const routes12 = feed({
      ...base,
      "transfers.txt": [
        link({ transfer_type: "2", min_transfer_time: "120", from_route_id: "R1", to_route_id: "R2" }),
      ],
    });
    expect(arrive(routes12, "A", "B", 20260601, "7:50")!.trips).toEqual(["in", "onward"]);
    // A footpath of ten minutes for everyone, and a trip pair the feed forbids across it.
    const walked = {
      ...base,
      "transfers.txt": [
        link({ transfer_type: "2", min_transfer_time: "600" }),
        link({ transfer_type: "3", from_trip_id: "in", to_trip_id: "later" }),
      ],
    };
    const forbidden = feed(walked);
    // The walk takes ten minutes: "onward" (8:13) is gone and "later" (8:43) forbidden off "in",
    // so the rider waits for the next day's "onward".
    expect(arrive(forbidden, "A", "B", 20260601, "7:50")).toMatchObject({
      at: "32:30:00",
      trips: ["in", "onward"],
    });
    expect(arrive(forbidden, "C", "B", 20260601, "7:50")).toMatchObject({
      at: "9:00:00",
      trips: ["other", "later"],
    });
  });

  it("applies a trip-to-trip rule to those trips only, and the most specific rule that matches", () => {
    const base = {
      "stops.txt": stops("A", "C", "X", "B"),
      "routes.txt": routes("R1", "R2", "R3"),
      "trips.txt": [trip("R1", "in"), trip("R3", "other"), trip("R2", "early"), trip("R2", "late")],
      "stop_times.txt": [
        ...calls("in", ["A", "8:00:00"], ["X", "8:10:00"]),
        ...calls("other", ["C", "7:00:00"], ["X", "7:10:00"]),
        ...calls("early", ["X", "8:14:00"], ["B", "8:30:00"]),
        ...calls("late", ["X", "8:40:00"], ["B", "8:56:00"]),
      ],
    };
    const rule = (extra: Record<string, string>) => ({ from_stop_id: "X", to_stop_id: "X", ...extra });
    // The stop's 5 minutes, and a timed change for another trip only: "in" still needs 5 minutes
    // (read as a rule for the whole stop, the timed change last in the file undid them).
    const tripRule = feed({
      ...base,
      "transfers.txt": [
        rule({ transfer_type: "2", min_transfer_time: "300" }),
        rule({ transfer_type: "1", from_trip_id: "other", to_trip_id: "early" }),
      ],
    });
    expect(arrive(tripRule, "A", "B", 20260601, "7:50")!.trips).toEqual(["in", "late"]);
    expect(arrive(tripRule, "C", "B", 20260601, "6:50")!.trips).toEqual(["other", "early"]);
    // Route pair over the stop; trip pair over the route pair.
    const routePair = feed({
      ...base,
      "transfers.txt": [
        rule({ transfer_type: "2", min_transfer_time: "300" }),
        rule({ transfer_type: "1", from_route_id: "R1", to_route_id: "R2" }),
      ],
    });
    expect(arrive(routePair, "A", "B", 20260601, "7:50")!.trips).toEqual(["in", "early"]);
    const tripOverRoute = feed({
      ...base,
      "transfers.txt": [
        rule({ transfer_type: "1", from_route_id: "R1", to_route_id: "R2" }),
        rule({ transfer_type: "3", from_trip_id: "in", to_trip_id: "early" }),
      ],
    });
    expect(arrive(tripOverRoute, "A", "B", 20260601, "7:50")!.trips).toEqual(["in", "late"]);
  });

  it("never boards where a trip does not pick up, nor gets off where it does not drop off", () => {
    const kinds = (id: string, list: [string, string, string, string][]) =>
      list.map(([stop, time, pickup, dropOff], i) => ({
        trip_id: id,
        arrival_time: time,
        departure_time: time,
        stop_id: stop,
        stop_sequence: String(i + 1),
        pickup_type: pickup,
        drop_off_type: dropOff,
      }));
    const tt = feed({
      "stops.txt": stops("A", "Y", "B"),
      "routes.txt": routes("R"),
      "trips.txt": [trip("R", "express"), trip("R", "local")],
      "stop_times.txt": [
        // The express runs through Y (a yard) without stopping for passengers.
        ...kinds("express", [
          ["A", "8:00:00", "", ""],
          ["Y", "8:05:00", "1", "1"],
          ["B", "8:10:00", "", ""],
        ]),
        ...kinds("local", [
          ["A", "8:02:00", "2", "0"],
          ["Y", "8:12:00", "0", "0"],
          ["B", "8:20:00", "0", "3"],
        ]),
      ],
    });
    expect(arrive(tt, "A", "Y", 20260601, "7:55")!.trips).toEqual(["local"]);
    expect(arrive(tt, "Y", "B", 20260601, "7:55")!.trips).toEqual(["local"]);
    expect(arrive(tt, "A", "B", 20260601, "7:55")!.trips).toEqual(["express"]);
    // Phone the agency to board the local at A; ask the driver to get off at B.
    const ride = arrive(tt, "A", "B", 20260601, "8:01")!.itinerary.legs.find((l) => l.kind === "ride");
    expect(ride).toMatchObject({ pickup: 2, dropOff: 3 });
  });

  it("applies a station's rule to each of its platforms and between them", () => {
    const tt = feed({
      "stops.txt": [
        {
          stop_id: "A",
          stop_name: "A",
          stop_lat: "36",
          stop_lon: "-116",
          location_type: "",
          parent_station: "",
        },
        {
          stop_id: "S",
          stop_name: "Central",
          stop_lat: "36.01",
          stop_lon: "-116",
          location_type: "1",
          parent_station: "",
        },
        {
          stop_id: "P1",
          stop_name: "Central 1",
          stop_lat: "36.01",
          stop_lon: "-116",
          location_type: "",
          parent_station: "S",
        },
        {
          stop_id: "P2",
          stop_name: "Central 2",
          stop_lat: "36.0101",
          stop_lon: "-116",
          location_type: "",
          parent_station: "S",
        },
        {
          stop_id: "B",
          stop_name: "B",
          stop_lat: "36.02",
          stop_lon: "-116",
          location_type: "",
          parent_station: "",
        },
      ],
      "routes.txt": routes("R1", "R2"),
      "trips.txt": [trip("R1", "in"), trip("R2", "same"), trip("R2", "other"), trip("R2", "later")],
      "stop_times.txt": [
        ...calls("in", ["A", "8:00:00"], ["P1", "8:10:00"]),
        ...calls("same", ["P1", "8:12:00"], ["B", "8:30:00"]),
        ...calls("other", ["P2", "8:12:00"], ["B", "8:31:00"]),
        ...calls("later", ["P2", "8:20:00"], ["B", "8:40:00"]),
      ],
      "transfers.txt": [{ from_stop_id: "S", to_stop_id: "S", transfer_type: "2", min_transfer_time: "180" }],
    });
    // Three minutes to change anywhere in the station: neither 8:12 is caught.
    const r = arrive(tt, "A", "B", 20260601, "7:55")!;
    expect(r.trips).toEqual(["in", "later"]);
    expect(r.at).toBe("8:40:00");
  });

  it("stays seated into the trip transfers.txt names (type 4), and gets off where it forbids it (type 5)", () => {
    const base = {
      "stops.txt": stops("A", "X", "B"),
      "routes.txt": routes("R1", "R2"),
      "stop_times.txt": [
        ...calls("t1", ["A", "8:00:00"], ["X", "8:10:00"]),
        ...calls("t2", ["X", "8:12:00"], ["B", "8:30:00"]),
      ],
    };
    const seated = (r: ReturnType<typeof arrive>) =>
      r!.itinerary.legs.flatMap((l) => (l.kind === "ride" ? [!!l.seated] : []));
    // No changes at X at all, but the vehicle runs on as t2 and the rider stays on it.
    const inSeat = feed({
      ...base,
      "trips.txt": [trip("R1", "t1"), trip("R2", "t2")],
      "transfers.txt": [
        { from_stop_id: "X", to_stop_id: "X", transfer_type: "3", from_trip_id: "", to_trip_id: "" },
        { from_stop_id: "", to_stop_id: "", transfer_type: "4", from_trip_id: "t1", to_trip_id: "t2" },
      ],
    });
    const r = arrive(inSeat, "A", "B", 20260601, "7:55")!;
    expect(r.trips).toEqual(["t1", "t2"]);
    expect(seated(r)).toEqual([false, true]);
    // One block, but type 5: off and on again, as a change (here possible, in 2 minutes).
    const offAndOn = feed({
      ...base,
      "trips.txt": [trip("R1", "t1", "DAILY", "b1"), trip("R2", "t2", "DAILY", "b1")],
      "transfers.txt": [
        { from_stop_id: "X", to_stop_id: "X", transfer_type: "5", from_trip_id: "t1", to_trip_id: "t2" },
      ],
    });
    const again = arrive(offAndOn, "A", "B", 20260601, "7:55")!;
    expect(again.trips).toEqual(["t1", "t2"]);
    expect(seated(again)).toEqual([false, false]);
    // Types 4 and 5 name both trips.
    expect(() =>
      feed({
        ...base,
        "trips.txt": [trip("R1", "t1"), trip("R2", "t2")],
        "transfers.txt": [
          { from_stop_id: "", to_stop_id: "", transfer_type: "4", from_trip_id: "t1", to_trip_id: "" },
        ],
      }),
    ).toThrow(/transfers.txt line 2 \(to_trip_id\): is required for transfer_type 4/);
  });

  it("of the journeys arriving first, answers the one leaving latest", () => {
    const tt = feed({
      "stops.txt": stops("A", "X", "B"),
      "routes.txt": routes("R1", "R2"),
      "trips.txt": [trip("R1", "dawn"), trip("R1", "morning"), trip("R2", "out")],
      "stop_times.txt": [
        ...calls("dawn", ["A", "6:00:00"], ["X", "6:10:00"]),
        ...calls("morning", ["A", "8:00:00"], ["X", "8:10:00"]),
        ...calls("out", ["X", "9:00:00"], ["B", "9:30:00"]),
      ],
    });
    const start = serviceDayStart(tt.timezone, 20260601);
    const at = (id: string) => tt.stops.findIndex((s) => s.id === id);
    const it = latestEarliestArrival(
      tt,
      [{ stop: at("A"), seconds: 60 }],
      [{ stop: at("B"), seconds: 0 }],
      start + 5 * 3600 + 50 * 60,
    )!;
    expect(clock(it.arrival - start)).toBe("9:30:00");
    // Not the 6:00 and three hours at X: the 8:00, left a minute before (the walk).
    expect(clock(it.departure - start)).toBe("7:59:00");
    expect(it.legs.flatMap((l) => (l.kind === "ride" ? [tt.tripId[l.trip]] : []))).toEqual([
      "morning",
      "out",
    ]);
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
