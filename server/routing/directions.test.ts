import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { Bundle } from "../bundles/file";
import { haversine } from "../geo/distance";
import { importOsm } from "../imports/osm-import";
import { hierarchyRoute } from "./ch-query";
import { type RoadGraph, type RoutableWay } from "./graph";
import { buildGraph } from "./graph-build";
import { roadGraphOf } from "./graph-bundle";
import { type Tags, wayProfile } from "./profiles";
import { type Step, alternativeRoutes, modifierOf, stepsOf, turnAngle } from "./directions";
import { SIZE, STEP, randomTown } from "../../tests/support/random-town";
import { instructionOf } from "./instructions";
import { arcsOfEdges, edgeIndex, snap } from "./snap";
import { dijkstraMany } from "./search";

/**
 * Directions on Turnland, a town drawn for them near 0°, 0° (0.001° ≈ 111 m): a crossroads of
 * four named streets, a one-way roundabout (drawn anticlockwise, as in right-hand traffic) with
 * four arms, a motorway with an exit ramp and a slip road onto it, and a street that bends
 * without a junction. Each route's maneuvers are what a driver there would be told.
 */

const NODES: Record<number, [number, number]> = {
  // Crossroads X(1) with arms west (2), east (3), north (4), south (5).
  1: [0, 0],
  2: [-0.001, 0],
  3: [0.001, 0],
  4: [0, 0.001],
  5: [0, -0.001],
  // A roundabout around (0.01, 0): ring nodes W(10), S(11), E(12), N(13), anticlockwise W→S→E→N.
  10: [0.0097, 0],
  11: [0.01, -0.0003],
  12: [0.0103, 0],
  13: [0.01, 0.0003],
  // Its arms' far ends.
  20: [0.0087, 0],
  21: [0.01, -0.0013],
  22: [0.0113, 0],
  23: [0.01, 0.0013],
  // A motorway west → east along lat 0.01, with an off ramp at 31 to 35 and a slip road from 36 to 33.
  30: [0, 0.01],
  31: [0.002, 0.01],
  32: [0.004, 0.01],
  33: [0.006, 0.01],
  34: [0.008, 0.01],
  35: [0.0035, 0.0085],
  36: [0.0045, 0.0085],
  // A bending street: 40 → 41 (a corner, no junction) → 42.
  40: [0.02, 0],
  41: [0.021, 0],
  42: [0.021, 0.001],
};

const WAYS: { refs: number[]; tags: Tags }[] = [
  { refs: [2, 1], tags: { highway: "residential", name: "West Street" } },
  { refs: [1, 3], tags: { highway: "residential", name: "East Street" } },
  { refs: [1, 4], tags: { highway: "residential", name: "North Street" } },
  { refs: [1, 5], tags: { highway: "residential", name: "South Street" } },
  { refs: [10, 11, 12, 13, 10], tags: { highway: "primary", junction: "roundabout", name: "Place Ronde" } },
  { refs: [20, 10], tags: { highway: "primary", name: "Avinguda Oest" } },
  { refs: [21, 11], tags: { highway: "primary", name: "Avinguda Sud" } },
  { refs: [12, 22], tags: { highway: "primary", name: "Avinguda Est" } },
  { refs: [13, 23], tags: { highway: "primary", name: "Avinguda Nord" } },
  { refs: [30, 31, 32, 33, 34], tags: { highway: "motorway", ref: "A1", oneway: "yes" } },
  { refs: [31, 35], tags: { highway: "motorway_link", oneway: "yes" } },
  { refs: [35, 36], tags: { highway: "secondary", name: "Service Road" } },
  { refs: [36, 33], tags: { highway: "motorway_link", oneway: "yes" } },
  { refs: [40, 41, 42], tags: { highway: "residential", name: "Crooked Lane" } },
];

const way = ({ refs, tags }: (typeof WAYS)[number], id: number): RoutableWay => {
  const lngs = refs.map((n) => NODES[n]![0]);
  const lats = refs.map((n) => NODES[n]![1]);
  let length = 0;
  for (let i = 1; i < refs.length; i++) length += haversine(lngs[i - 1]!, lats[i - 1]!, lngs[i]!, lats[i]!);
  return { id, nodes: refs, lngs, lats, profile: wayProfile(tags, length)! };
};
const graph = buildGraph(WAYS.map(way));
const index = edgeIndex(graph);
const arcs = arcsOfEdges(graph);

/** A point a fifth of the way from node a towards node b. */
const near = (a: number, b: number): [number, number] => {
  const [p, q] = [NODES[a]!, NODES[b]!];
  return [p[0] + 0.2 * (q[0] - p[0]), p[1] + 0.2 * (q[1] - p[1])];
};

function directions(from: [number, number], to: [number, number]): Step[] {
  const a = snap(graph, index, arcs, from[0], from[1], "car", 100)!;
  const b = snap(graph, index, arcs, to[0], to[1], "car", 100)!;
  const [leg] = dijkstraMany(graph, "car", a, [b], { paths: true });
  expect(leg, "a route").toBeDefined();
  const steps = stepsOf(graph, "car", a, b, leg!.arcs!, to);
  // The steps add up to the leg.
  expect(steps.reduce((s, x) => s + x.meters, 0)).toBeCloseTo(leg!.meters, 3);
  expect(steps.reduce((s, x) => s + x.seconds, 0)).toBeCloseTo(leg!.seconds, 3);
  return steps;
}
const summary = (steps: Step[]) =>
  steps.map((s) =>
    [s.type, s.modifier, s.exit, s.name || s.ref].filter((x) => x !== undefined && x !== "").join(" "),
  );

describe("turn angles", () => {
  it("reads a turn to the right as positive and names it", () => {
    expect(turnAngle(0, 90)).toBe(90);
    expect(turnAngle(350, 10)).toBe(20);
    expect(turnAngle(90, 0)).toBe(-90);
    expect([10, 40, 90, 150, 178].map(modifierOf)).toEqual([
      "straight",
      "slight right",
      "right",
      "sharp right",
      "uturn",
    ]);
    expect([-40, -90, -150].map(modifierOf)).toEqual(["slight left", "left", "sharp left"]);
  });
});

describe("directions on Turnland", () => {
  it("turns left, right or goes straight on at a crossroads, by the angle", () => {
    expect(summary(directions(near(2, 1), near(4, 1)))).toEqual([
      "depart West Street",
      "turn left North Street",
      "arrive North Street",
    ]);
    expect(summary(directions(near(2, 1), near(5, 1)))).toEqual([
      "depart West Street",
      "turn right South Street",
      "arrive South Street",
    ]);
    expect(summary(directions(near(2, 1), near(3, 1)))).toEqual([
      "depart West Street",
      "new name straight East Street",
      "arrive East Street",
    ]);
  });

  it("counts a roundabout's exits the way it is driven, and names the road taken", () => {
    // Anticlockwise from the west arm: south is the 1st exit, east the 2nd, north the 3rd.
    expect(summary(directions(near(20, 10), near(21, 11)))).toEqual([
      "depart Avinguda Oest",
      "roundabout right 1 Avinguda Sud",
      "arrive Avinguda Sud",
    ]);
    expect(summary(directions(near(20, 10), near(22, 12)))).toEqual([
      "depart Avinguda Oest",
      "roundabout straight 2 Avinguda Est",
      "arrive Avinguda Est",
    ]);
    expect(summary(directions(near(20, 10), near(23, 13)))).toEqual([
      "depart Avinguda Oest",
      "roundabout left 3 Avinguda Nord",
      "arrive Avinguda Nord",
    ]);
  });

  it("takes the off ramp from the motorway and the slip road back onto it", () => {
    const off = summary(directions(near(30, 31), [0.0042, 0.0085]));
    expect(off[0]).toBe("depart A1");
    expect(off[1]).toMatch(/^off ramp (slight )?right/);
    const back = summary(directions([0.0038, 0.0085], near(34, 33)));
    expect(back.some((s) => /^(on ramp|turn) /.test(s))).toBe(true);
    expect(back, JSON.stringify(back)).toContain("merge slight left A1");
  });

  it("says nothing where the road only bends, and which side the destination is on", () => {
    const steps = directions(near(40, 41), [0.0212, 0.0008]);
    expect(summary(steps)).toEqual(["depart Crooked Lane", "arrive right Crooked Lane"]);
  });

  it("writes each maneuver in English, German and French", () => {
    const steps = directions(near(20, 10), near(23, 13));
    expect(instructionOf(steps[1]!, "en", 0, 1)).toBe(
      "Enter the roundabout and take the 3rd exit onto Avinguda Nord",
    );
    expect(instructionOf(steps[1]!, "de", 0, 1)).toMatch(/dritte Ausfahrt.*Avinguda Nord/);
    expect(instructionOf(steps[1]!, "fr", 0, 1)).toMatch(/troisième sortie.*Avinguda Nord/);
    const left = directions(near(2, 1), near(4, 1));
    expect(instructionOf(left[0]!, "en", 0, 1)).toBe("Head east on West Street");
    expect(instructionOf(left[1]!, "en", 0, 1)).toBe("Turn left onto North Street");
    expect(instructionOf(left[1]!, "de", 0, 1)).toBe("Links abbiegen auf North Street");
    expect(instructionOf(left[1]!, "fr", 0, 1)).toMatch(/^Tourner à gauche sur North Street/);
    expect(instructionOf(left[2]!, "en", 0, 1)).toMatch(/^You have arrived at your destination/);
  });
});

describe("alternative routes", () => {
  it("are other ways, at most 40% slower than the best, each adding up to its steps, on random towns", () => {
    let offered = 0;
    for (const seed of [1, 2, 3]) {
      const { graph: g, random } = randomTown(seed);
      const idx = edgeIndex(g);
      const arcsOf = arcsOfEdges(g);
      for (let k = 0; k < 20; k++) {
        const at = () => random() * (SIZE - 1) * STEP;
        const a = snap(g, idx, arcsOf, at(), at(), "car", 80);
        const b = snap(g, idx, arcsOf, at(), at(), "car", 80);
        if (!a || !b) continue;
        const [best] = dijkstraMany(g, "car", a, [b], { paths: true });
        if (!best || best.meters < 300) continue;
        const alts = alternativeRoutes(g, "car", a, b, best);
        offered += alts.length;
        const bestEdges = new Set(best.arcs!.map((x) => g.edgeOf[x]));
        for (const alt of alts) {
          expect(alt.leg.seconds).toBeLessThanOrEqual(1.4 * best.seconds + 1e-6);
          expect(alt.leg.seconds).toBeGreaterThanOrEqual(best.seconds - 1e-6);
          const shared = alt.arcs.filter((x) => bestEdges.has(g.edgeOf[x])).length;
          expect(shared).toBeLessThan(alt.arcs.length);
          const steps = stepsOf(g, "car", a, b, alt.arcs);
          expect(steps.reduce((sum, s2) => sum + s2.meters, 0)).toBeCloseTo(alt.leg.meters, 3);
        }
      }
    }
    expect(offered).toBeGreaterThan(5);
  });
});

const andorra = path.resolve("../shared/data/osm/andorra-2021.osm.pbf");

async function graphOf(extract: string): Promise<RoadGraph> {
  const summary = await importOsm(extract, { dir: mkdtempSync(path.join(tmpdir(), "directions-")) });
  return roadGraphOf(new Bundle(summary.file))!;
}

describe.runIf(existsSync(andorra))("directions on Andorra (shared extract)", () => {
  let g: RoadGraph;
  beforeAll(async () => {
    g = await graphOf(andorra);
  }, 60_000);

  it("drives Avinguda Meritxell against its drawing, named, heading west (andorra-2013)", async () => {
    const g = await graphOf(path.resolve("../shared/data/osm/andorra-2013.osm.pbf"));
    const idx = edgeIndex(g);
    const arcsOf = arcsOfEdges(g);
    const a = snap(g, idx, arcsOf, 1.53315, 42.50834, "car", 20)!;
    const b = snap(g, idx, arcsOf, 1.53127, 42.50821, "car", 20)!;
    const leg = hierarchyRoute(g, g.hierarchies!.car!, "car", a, b, { paths: true })!;
    const steps = stepsOf(g, "car", a, b, leg.arcs!, [1.53127, 42.50821]);
    expect(steps[0]!.name).toMatch(/Meritxell/);
    expect(Math.abs(turnAngle(steps[0]!.bearingAfter, 270))).toBeLessThan(30);
    expect(instructionOf(steps[0]!, "en", 0, 1)).toMatch(/^Head west on .*Meritxell/);
  }, 60_000);

  it("gives 300 random car routes steps that add up, turn to the side the roads do, and count roundabout exits", () => {
    const idx = edgeIndex(g);
    const arcsOf = arcsOfEdges(g);
    let seed = 7;
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    let routed = 0;
    let roundabouts = 0;
    let turns = 0;
    while (routed < 300) {
      const point = () => snap(g, idx, arcsOf, 1.48 + random() * 0.12, 42.45 + random() * 0.1, "car", 300);
      const [a, b] = [point(), point()];
      if (!a || !b) continue;
      const leg = hierarchyRoute(g, g.hierarchies!.car!, "car", a, b, { paths: true });
      if (!leg) continue;
      routed++;
      const steps = stepsOf(g, "car", a, b, leg.arcs!, [b.lng, b.lat]);
      expect(steps.reduce((s, x) => s + x.meters, 0)).toBeCloseTo(leg.meters, 1);
      expect(steps.reduce((s, x) => s + x.seconds, 0)).toBeCloseTo(leg.seconds, 1);
      expect(steps[0]!.type).toBe("depart");
      expect(steps.at(-1)!.type).toBe("arrive");
      for (const s of steps.slice(1, -1)) {
        const angle = turnAngle(s.bearingBefore, s.bearingAfter);
        if (s.type === "roundabout") {
          roundabouts++;
          expect(s.exit, JSON.stringify(s.location)).toBeGreaterThanOrEqual(1);
          expect(s.exit).toBeLessThanOrEqual(12);
        } else if (s.type === "turn" || s.type === "continue") {
          turns++;
          // The side said is the side turned to.
          if (/left/.test(s.modifier!)) expect(angle, JSON.stringify(s)).toBeLessThan(0);
          if (/right/.test(s.modifier!)) expect(angle, JSON.stringify(s)).toBeGreaterThan(0);
        }
        for (const language of ["en", "de", "fr"]) {
          expect(instructionOf(s, language, 0, 1)).not.toMatch(/undefined|\{/);
        }
      }
    }
    expect(roundabouts).toBeGreaterThan(20);
    expect(turns).toBeGreaterThan(300);
  }, 60_000);
});
