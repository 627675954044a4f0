import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { Bundle } from "../bundles/file";
import { roadGraphOf } from "./graph-bundle";
import { importOsm } from "../imports/osm-import";
import type { RoadGraph } from "./graph";
import { MODES, type Mode } from "./profiles";
import { hierarchyRoute } from "./ch-query";
import { type Snap, arcsOfEdges, edgeIndex, snap } from "./snap";
import { dijkstra, fastestRoute } from "./search";

/**
 * Routing on the shared extracts (skipped, with a warning, when ../shared/data is absent): the
 * searches that answer routes (the contraction hierarchy the import built, and the A* used with
 * `avoid`) must agree with the plain Dijkstra on random Andorra trips, for every mode, and
 * routes are never shorter than the straight line; and a one-way street and a flight of steps,
 * checked by hand against the map, are routed as they should be.
 */

const data = path.resolve("../shared/data/osm");
const shared = path.join(data, "andorra-2021.osm.pbf");

describe.runIf(existsSync(shared))("routing on Andorra (shared extract)", () => {
  let g: RoadGraph;
  beforeAll(async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "routing-"));
    const summary = await importOsm(shared, { dir });
    g = roadGraphOf(new Bundle(summary.file))!;
  }, 60_000);

  it("answers every random trip as the Dijkstra does, never shorter than the straight line", () => {
    for (const mode of MODES) expect(g.hierarchies?.[mode], mode).toBeDefined();
    const index = edgeIndex(g);
    const arcs = arcsOfEdges(g);
    let seed = 42;
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    for (const mode of MODES) {
      let compared = 0;
      while (compared < 150) {
        const point = () => snap(g, index, arcs, 1.5 + random() * 0.06, 42.5 + random() * 0.03, mode, 300);
        const [a, b] = [point(), point()] as [Snap | undefined, Snap | undefined];
        if (!a || !b) continue;
        compared++;
        const plain = dijkstra(g, mode, a, b);
        for (const leg of [
          fastestRoute(g, mode, a, b),
          hierarchyRoute(g, g.hierarchies![mode]!, mode, a, b),
        ]) {
          expect(leg === undefined, `${mode} trip ${compared}`).toBe(plain === undefined);
          if (leg && plain) expect(leg.seconds, `${mode} trip ${compared}`).toBeCloseTo(plain.seconds, 6);
        }
        if (plain) {
          const straight = Math.hypot((b.lng - a.lng) * 82_000, (b.lat - a.lat) * 111_000);
          expect(plain.meters).toBeGreaterThan(straight * 0.99);
        }
      }
    }
  });
});

/** A trip's meters and seconds on an import's graph, by its hierarchy, from [lng, lat] to [lng, lat]. */
function tripOn(g: RoadGraph) {
  const index = edgeIndex(g);
  const arcs = arcsOfEdges(g);
  return (mode: Mode, [lngA, latA]: [number, number], [lngB, latB]: [number, number]) => {
    const a = snap(g, index, arcs, lngA, latA, mode, 20)!;
    const b = snap(g, index, arcs, lngB, latB, mode, 20)!;
    return hierarchyRoute(g, g.hierarchies![mode]!, mode, a, b)!;
  };
}

const within = (value: number, expected: number, share: number) =>
  expect(Math.abs(value - expected) / expected).toBeLessThan(share);

describe.runIf(existsSync(path.join(data, "andorra-2013.osm.pbf")))(
  "a one-way street, by hand (Andorra 2013)",
  () => {
    // Avinguda Meritxell (way 144382952: highway=secondary, oneway=-1, drawn west to east), between
    // two points on it 155 m apart: cars go east to west only.
    const west: [number, number] = [1.53127, 42.50821];
    const east: [number, number] = [1.53315, 42.50834];
    let trip: ReturnType<typeof tripOn>;
    beforeAll(async () => {
      const dir = mkdtempSync(path.join(tmpdir(), "routing-"));
      const summary = await importOsm(path.join(data, "andorra-2013.osm.pbf"), { dir });
      trip = tripOn(roadGraphOf(new Bundle(summary.file))!);
    }, 60_000);

    it("drives it only against its drawing, walks it both ways", () => {
      within(trip("car", east, west).meters, 155, 0.03);
      expect(trip("car", west, east).meters).toBeGreaterThan(2 * 155); // round the blocks
      within(trip("foot", west, east).meters, 155, 0.03);
      within(trip("foot", east, west).meters, 155, 0.03);
      within(trip("bike", east, west).meters, 155, 0.03);
      // Against it a bike is pushed (155 m at 5 km/h, 112 s) or ridden round: never faster.
      expect(trip("bike", west, east).seconds).toBeGreaterThan(60);
    });
  },
);

describe.runIf(existsSync(path.join(data, "monaco-2016.osm.pbf")))("steps, by hand (Monaco 2016)", () => {
  // Escalier du Riviéra (highway=steps, 253 m) from its top to its foot.
  const top: [number, number] = [7.4235203, 43.7442273];
  const foot: [number, number] = [7.4255118, 43.7426927];
  let trip: ReturnType<typeof tripOn>;
  beforeAll(async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "routing-"));
    const summary = await importOsm(path.join(data, "monaco-2016.osm.pbf"), { dir });
    trip = tripOn(roadGraphOf(new Bundle(summary.file))!);
  }, 60_000);

  it("takes people down and up the steps, pushes bikes at walking pace, sends cars round", () => {
    within(trip("foot", top, foot).meters, 253, 0.03);
    within(trip("foot", foot, top).meters, 253, 0.03);
    within(trip("bike", foot, top).meters, 253, 0.03);
    within(trip("bike", foot, top).seconds, 253 / (5 / 3.6), 0.03);
    expect(trip("car", top, foot).meters).toBeGreaterThan(3 * 253);
    expect(trip("car", foot, top).meters).toBeGreaterThan(3 * 253);
  });
});

if (!existsSync(data)) {
  console.warn(`[routing extracts.test] ${data} is absent: routing on real extracts did not run.`);
}
