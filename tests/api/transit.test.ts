import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { importOsm } from "../../server/imports/osm-import";
import { importGtfs } from "../../server/imports/gtfs-import";
import { api, expectError } from "../support/api";
import { writeOsmPbf } from "../support/osm-pbf";
import { roadland, roadlandOsm } from "../support/road-fixture";
import { writeShoreLine } from "../support/transit-fixture";

/**
 * GET /v1/route/distance with modes=transit through the running server: Roadland's roads
 * (tests/support/road-fixture.ts) and the Shore Line feed (tests/support/transit-fixture.ts: A to
 * M, 555 m on foot, once a day at 8:00 Lagos time, in two minutes), imported as a user would.
 */

const geodata = inject("geodataDir");
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

beforeAll(async () => {
  mkdirSync(geodata, { recursive: true });
  const work = mkdtempSync(path.join(tmpdir(), "transit-"));
  const pbf = path.join(work, "roadland.osm.pbf");
  writeOsmPbf(pbf, roadlandOsm());
  await importOsm(pbf, { dir: geodata, name: "roadland-transit" });
  await importGtfs(writeShoreLine(path.join(work, "shore-line")), { dir: geodata });
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
  it("answers the ride, left as late as it allows, in the feed's local time, and its legs when asked", async () => {
    const r = await transit({
      origin: at(1),
      destination: at(8),
      departureTime: "2026-06-01T07:58",
      details: "true",
    });
    // Asked at 7:58 for the 8:00 from the stop there: leave at 8:00, not wait two minutes.
    expect(r.departureTime).toBe("2026-06-01T08:00:00+01:00");
    expect(r.arrivalTime).toMatch(/^2026-06-01T08:02:\d\d\+01:00$/);
    expect(r.duration!.value).toBeGreaterThanOrEqual(2);
    expect(r.duration!.value).toBeLessThan(3);
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
    // With geometry, each leg's line: the ride through its stops.
    const lines = await transit({
      origin: at(1),
      destination: at(8),
      departureTime: "2026-06-01T07:58",
      details: "true",
      geometry: "linestring",
    });
    const rideLine = (
      lines.legs!.find((l) => l.mode === "transit") as { geometry?: { coordinates: number[][] } }
    ).geometry!.coordinates;
    expect(rideLine).toEqual([
      [roadland(1).lng, roadland(1).lat],
      [roadland(8).lng, roadland(8).lat],
    ]);
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
