import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { databaseFile } from "../../server/config/database-url";
import { importOsm } from "../../server/geodata/osm-import";
import { importGtfs } from "../../server/transit/import";
import { api, expectError } from "../support/api";
import { writeOsmPbf } from "../support/osm-pbf";
import { roadland, roadlandOsm } from "../support/road-fixture";

/**
 * GET /v1/route/distance with modes=transit through the running server: Roadland's roads
 * (tests/support/road-fixture.ts) and a one-line feed written here, imported as a user would.
 * The line runs from A (node 1) to M (node 8), 555 m apart on foot, once a day at 8:00 Lagos time
 * (UTC+1, no summer time), in two minutes.
 */

const geodata = path.join(path.dirname(databaseFile(inject("databaseUrl"))), "geodata");
const at = (node: number) => `${roadland(node).lat},${roadland(node).lng}`;

type Transit = {
  distance?: { value: number };
  duration?: { value: number; text: string };
  departureTime?: string;
  arrivalTime?: string;
  walkingOnly?: boolean;
  unavailable?: string;
  walking?: { distance: { value: number } };
  legs?: {
    mode: string;
    departureTime: string;
    arrivalTime: string;
    from: { stopId?: string };
    to: { stopId?: string };
    route?: { shortName: string };
    trip?: { id: string };
  }[];
};

async function transit(params: Record<string, string>): Promise<Transit> {
  const res = await api("GET", `/v1/route/distance?${new URLSearchParams({ modes: "transit", ...params })}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body.routes as { transit: Transit }).transit;
}

const feed = {
  "agency.txt": "agency_id,agency_name,agency_timezone\nRL,Roadland Lines,Africa/Lagos",
  "calendar.txt":
    "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nD,1,1,1,1,1,1,1,20260101,20261231",
  "routes.txt": "route_id,agency_id,route_short_name,route_long_name,route_type\nL1,RL,1,Shore Line,3",
  "stops.txt": `stop_id,stop_name,stop_lat,stop_lon\nSA,Shore A,${roadland(1).lat},${roadland(1).lng}\nSM,Bollard M,${roadland(8).lat},${roadland(8).lng}`,
  "trips.txt": "route_id,service_id,trip_id,trip_headsign\nL1,D,L1-0800,to M",
  "stop_times.txt":
    "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nL1-0800,8:00:00,8:00:00,SA,1\nL1-0800,8:02:00,8:02:00,SM,2",
};

beforeAll(async () => {
  mkdirSync(geodata, { recursive: true });
  const work = mkdtempSync(path.join(tmpdir(), "transit-"));
  const pbf = path.join(work, "roadland.osm.pbf");
  writeOsmPbf(pbf, roadlandOsm());
  await importOsm(pbf, { dir: geodata, name: "roadland-transit" });
  const folder = path.join(work, "shore-line");
  mkdirSync(folder);
  for (const [name, text] of Object.entries(feed)) writeFileSync(path.join(folder, name), text);
  await importGtfs(folder, { dir: geodata });
  const deadline = Date.now() + 5000;
  while (
    (await transit({ origin: at(1), destination: at(8), departureTime: "2026-06-01T07:58" })).unavailable
  ) {
    if (Date.now() > deadline) throw new Error("the server did not pick up the feed");
    await new Promise((r) => setTimeout(r, 200));
  }
});

afterAll(() => {
  for (const name of ["roadland-transit", "shore-line"])
    rmSync(path.join(geodata, `${name}.sqlite`), { force: true });
});

describe("GET /v1/route/distance modes=transit", () => {
  it("answers the ride with the wait, in the feed's local time, and its legs when asked", async () => {
    const r = await transit({
      origin: at(1),
      destination: at(8),
      departureTime: "2026-06-01T07:58",
      details: "true",
    });
    expect(r.departureTime).toBe("2026-06-01T07:58:00+01:00");
    expect(r.arrivalTime).toMatch(/^2026-06-01T08:02:\d\d\+01:00$/);
    expect(r.duration!.value).toBeGreaterThanOrEqual(4);
    expect(r.duration!.value).toBeLessThan(5);
    expect(r.walkingOnly).toBeUndefined();
    const ride = r.legs!.find((l) => l.mode === "transit")!;
    expect(ride).toMatchObject({
      departureTime: "2026-06-01T08:00:00+01:00",
      arrivalTime: "2026-06-01T08:02:00+01:00",
      from: { stopId: "SA" },
      to: { stopId: "SM" },
      route: { shortName: "1" },
      trip: { id: "L1-0800" },
    });
    // The same instant given with an offset; no legs without details.
    const utc = await transit({ origin: at(1), destination: at(8), departureTime: "2026-06-01T06:58:00Z" });
    expect(utc.arrivalTime).toBe(r.arrivalTime);
    expect(utc.legs).toBeUndefined();
  });

  it("walks, marked as such, when walking arrives sooner than the next trip", async () => {
    const r = await transit({
      origin: at(1),
      destination: at(8),
      departureTime: "2026-06-01T08:01",
      details: "true",
    });
    expect(r.walkingOnly).toBe(true);
    expect(Math.abs(r.distance!.value - 555)).toBeLessThan(30);
    expect(r.legs!.map((l) => l.mode)).toEqual(["walk"]);
  });

  it("says when no feed serves the trip, with the walking route", async () => {
    const r = await transit({
      origin: "48.8566,2.3522",
      destination: "48.8606,2.3376",
      departureTime: "2026-06-01T08:00",
    });
    expect(r.unavailable).toMatch(/no imported transit timetables serve/);
    expect(r.walking!.distance.value).toBeGreaterThan(1000);
    expect(r.distance).toBeUndefined();
  });

  it("refuses a departure time it cannot read, naming it", async () => {
    for (const bad of ["tomorrow", "2026-13-01T08:00", "2026-06-01 08:00", "1717225200"]) {
      expectError(
        await api(
          "GET",
          `/v1/route/distance?${new URLSearchParams({ origin: at(1), destination: at(8), modes: "transit", departureTime: bad })}`,
        ),
        400,
        "departureTime",
        /ISO 8601/,
      );
    }
    expectError(
      await api(
        "GET",
        `/v1/route/distance?${new URLSearchParams({ origin: at(1), destination: at(8), modes: "transit", details: "maybe" })}`,
      ),
      400,
      "details",
    );
  });
});
