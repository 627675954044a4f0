import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { randomTown } from "../../tests/support/random-town";
import { Bundle } from "../bundles/file";
import { nearestOnPath } from "../geo/polygon";
import { noisyTrip } from "../../tests/support/traces";
import { importOsm } from "../imports/osm-import";
import type { RoadGraph } from "./graph";
import { roadGraphOf } from "./graph-bundle";
import { type TracePoint, matchTrace } from "./match";
import type { Mode } from "./profiles";
import { arcsOfEdges, edgeIndex } from "./snap";

/**
 * Map matching on traces made as the issue says: a known route driven at the mode's usual pace,
 * sampled every 5 to 10 s, each fix moved by Gaussian noise of 5 to 30 m (its accuracy). At least
 * 95% of the fixes must be matched onto the route driven, the matched length of all the trips
 * be within 5% of the length driven, and most trips each within 5% (a trip's first and last
 * fixes' own noise along the road allowed). On random towns (a 111 m grid, where a 30 m error
 * often lies nearer the next street) by car and on foot, and, with the shared extracts, by car
 * on Andorra.
 */

/** Matches trips of the mode; the share of fixes put on the route driven, and of trips within 5% of its length. */
function score(
  g: RoadGraph,
  mode: Mode,
  trips: number,
  seed: number,
  box: [number, number, number, number],
  least: number,
) {
  const index = edgeIndex(g);
  const arcs = arcsOfEdges(g);
  let seedState = seed;
  const random = () => (seedState = (seedState * 16807) % 2147483647) / 2147483647;
  let right = 0;
  let fixes = 0;
  let close = 0;
  let broken = 0;
  let matchedMeters = 0;
  let drivenMeters = 0;
  for (let k = 0; k < trips; k++) {
    const trip = noisyTrip(g, mode, random, box, least);
    const { matched, stretches } = matchTrace(g, index, arcs, mode, trip.trace);
    fixes += trip.trace.length;
    for (const m of matched) {
      if (nearestOnPath(m.lng, m.lat, trip.line).distance < 3) right++;
    }
    const meters = stretches.reduce((s, x) => s + x.meters, 0);
    // Within 5%, or within the first and last fixes' own noise along the road on a short trip.
    if (Math.abs(meters - trip.driven) <= Math.max(0.05 * trip.driven, 60)) close++;
    if (stretches.length > 1) broken++;
    matchedMeters += meters;
    drivenMeters += trip.driven;
  }
  return { right: right / fixes, close: close / trips, broken, length: matchedMeters / drivenMeters };
}

describe("map matching", () => {
  for (const seed of [1, 2]) {
    it(`puts at least 95% of noisy fixes on the roads driven, random town ${seed}`, () => {
      const { graph } = randomTown(seed);
      const box: [number, number, number, number] = [0, 0, 0.008, 0.008];
      for (const mode of ["car", "foot"] as Mode[]) {
        const r = score(graph, mode, 30, seed * 7 + 1, box, 400);
        expect(r.right, `${mode}: ${JSON.stringify(r)}`).toBeGreaterThanOrEqual(0.95);
        expect(Math.abs(r.length - 1), `${mode}: ${JSON.stringify(r)}`).toBeLessThanOrEqual(0.05);
        expect(r.close, `${mode}: ${JSON.stringify(r)}`).toBeGreaterThanOrEqual(0.75);
        expect(r.broken, mode).toBe(0);
      }
    });
  }

  it("breaks a trace where no road joins two fixes, and leaves fixes far from any road unmatched", () => {
    const { graph } = randomTown(3);
    const index = edgeIndex(graph);
    const arcs = arcsOfEdges(graph);
    // Along the bottom street, then a fix 1 km out at sea, then along the top street... of an
    // island 50 km away (no road joins them).
    const trace: TracePoint[] = [
      { lng: 0.0001, lat: 0, accuracy: 5 },
      { lng: 0.0005, lat: 0, accuracy: 5 },
      { lng: 0.004, lat: -0.01, accuracy: 10 },
      { lng: 0.0009, lat: 0, accuracy: 5 },
    ];
    const { matched, stretches } = matchTrace(graph, index, arcs, "foot", trace);
    expect(matched.map((m) => m.index)).toEqual([0, 1, 3]);
    expect(stretches).toHaveLength(1);
    expect(stretches[0]!.meters).toBeGreaterThan(80);
    expect(stretches[0]!.meters).toBeLessThan(120);
  });
});

const andorra = path.resolve("../shared/data/osm/andorra-2021.osm.pbf");

describe.runIf(existsSync(andorra))("map matching on Andorra (shared extract)", () => {
  let g: RoadGraph;
  beforeAll(async () => {
    const summary = await importOsm(andorra, { dir: mkdtempSync(path.join(tmpdir(), "match-")) });
    g = roadGraphOf(new Bundle(summary.file))!;
  }, 60_000);

  it.each([11, 12, 13, 14, 15, 16, 17, 18, 19, 20].map((seed) => [seed, 39]))(
    "puts at least 95% of noisy fixes of car trips on the roads driven, without wrong turns (seed %i: %i of 40)",
    (seed, least) => {
      // 40 trips of 3 km or more across Andorra la Vella and Escaldes, each within 5% of the
      // length driven but the `least` asked. With 8 candidates a fix seeds 11 and 12 had 33 and
      // 35 (wrong turns and back where roads run close); with 20, 39 and 39, and the seeds
      // 13–16 36, 36, 38, 38 (a fix 4σ off whose road is not among its candidates, a trip up the
      // road and back for two noisy fixes); with U-turns costed and outliers passed over, 39
      // each but seed 14 (36: a fix 2–3σ off beside a side road, whose zigzag paid for a turn
      // into it and back round the block); with each fix weighed against the route that leaves
      // it out, seed 14 39 too, and seeds 17–20 (not looked at while choosing) 39, 40, 39, 40.
      const r = score(g, "car", 40, seed, [1.49, 42.49, 1.56, 42.53], 3000);
      expect(r.right, JSON.stringify(r)).toBeGreaterThanOrEqual(0.95);
      expect(Math.abs(r.length - 1), JSON.stringify(r)).toBeLessThanOrEqual(0.02);
      expect(r.close, JSON.stringify(r)).toBeGreaterThanOrEqual(least / 40);
    },
    60_000,
  );
});
