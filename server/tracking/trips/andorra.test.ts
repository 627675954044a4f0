import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { Bundle } from "../../bundles/file";
import { haversine } from "../../geo/distance";
import { importOsm } from "../../imports/osm-import";
import { hierarchyRoute } from "../../routing/ch-query";
import type { RoadGraph } from "../../routing/graph";
import { roadGraphOf } from "../../routing/graph-bundle";
import { type Snap, arcsOfEdges, edgeIndex, snap } from "../../routing/snap";
import type { EtaHint } from "./model";
import { type Trip, advance } from "./progress";
import { newTrip } from "./start";

/**
 * A car trip across Andorra la Vella on the shared extract (skipped, with a warning, when
 * ../shared/data is absent): a device driven along the fastest route, its ETA found at each fix
 * by the same hierarchy search the routing workers run. The ETA falls as it goes, the trip
 * approaches once and arrives once, at the end.
 */

const shared = path.resolve("../shared/data/osm/andorra-2021.osm.pbf");

describe.runIf(existsSync(shared))("a trip driven across Andorra (shared extract)", () => {
  let g: RoadGraph;
  beforeAll(async () => {
    const summary = await importOsm(shared, { dir: mkdtempSync(path.join(tmpdir(), "trip-")) });
    g = roadGraphOf(new Bundle(summary.file))!;
  }, 60_000);

  it("moves the trip on from start to arrival with a falling road ETA", () => {
    const index = edgeIndex(g);
    const arcs = arcsOfEdges(g);
    const at = (lng: number, lat: number) => snap(g, index, arcs, lng, lat, "car", 300) as Snap;
    // From Santa Coloma to Escaldes-Engordany, through the capital (about 4 km by road).
    const [from, to] = [at(1.4995, 42.4955), at(1.5355, 42.5098)];
    const route = hierarchyRoute(g, g.hierarchies!.car!, "car", from, to, { paths: true })!;
    expect(route.meters).toBeGreaterThan(3000);
    const dest: [number, number] = [to.lng, to.lat];
    let trip: Trip = {
      ...newTrip(
        false,
        {
          externalId: "andorra",
          owner: { userId: "driver", deviceId: null },
          status: "started",
          mode: "car",
          approachingThreshold: 3,
          destination: {
            geofenceId: null,
            tag: null,
            externalId: null,
            latitude: dest[1],
            longitude: dest[0],
            arrivalRadius: 60,
          },
        },
        new Date("2026-11-26T08:00:00Z"),
        { newId: () => "0".repeat(24), now: () => new Date("2026-11-26T08:00:00Z") },
      ),
      startNotified: true,
    };
    // A fix every 150 m along the route's line, 20 s apart.
    const fixes: [number, number][] = [route.path![0]!];
    let run = 0;
    for (let i = 1; i < route.path!.length; i++) {
      const [a, b] = [route.path![i - 1]!, route.path![i]!];
      run += haversine(a[0], a[1], b[0], b[1]);
      if (run >= 150) {
        fixes.push(b);
        run = 0;
      }
    }
    if (fixes.at(-1) !== route.path!.at(-1)) fixes.push(route.path!.at(-1)!);
    const etas: number[] = [];
    const seen: string[] = [];
    fixes.forEach((p, i) => {
      const here = at(p[0], p[1]);
      const leg = hierarchyRoute(g, g.hierarchies!.car!, "car", here, to, {});
      const eta: EtaHint | null = leg
        ? { to: dest, mode: "car", distance: leg.meters, duration: leg.seconds / 60, source: "road" }
        : null;
      const moved = advance(trip, {
        at: new Date(Date.parse("2026-11-26T08:00:00Z") + (i + 1) * 20_000),
        position: p,
        eta,
        arrived: (t) =>
          haversine(p[0], p[1], t.destinationLongitude!, t.destinationLatitude!) <= t.arrivalRadius!,
        wrongDestination: false,
      });
      trip = moved.trip;
      seen.push(...moved.events.map((e) => e.type));
      if (trip.status !== "arrived") {
        expect(trip.etaSource).toBe("road");
        etas.push(trip.etaDistance!);
      }
    });
    expect(fixes.length).toBeGreaterThan(20);
    // The road left shrinks at every fix but by a few meters where the snapped point steps back.
    for (let i = 1; i < etas.length; i++) expect(etas[i]!).toBeLessThan(etas[i - 1]! + 20);
    expect(etas[0]!).toBeGreaterThan(etas.at(-1)! + 2500);
    expect(seen.filter((t) => t === "user.approaching_trip_destination")).toHaveLength(1);
    expect(seen.filter((t) => t === "user.arrived_at_trip_destination")).toHaveLength(1);
    // Arrived among the last fixes (the first within 60 m of the end: a route may pass by the
    // destination across a one-way street before it turns back to it), nothing but updates after.
    const arrivedAt = seen.indexOf("user.arrived_at_trip_destination");
    expect(seen.slice(arrivedAt + 1).every((t) => t === "user.updated_trip")).toBe(true);
    expect(seen.length - arrivedAt).toBeLessThanOrEqual(4);
    expect(trip.status).toBe("arrived");
  });
});
