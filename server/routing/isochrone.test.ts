import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SIZE, STEP, randomTown } from "../../tests/support/random-town";
import { Bundle } from "../bundles/file";
import { haversine } from "../geo/distance";
import { findSelfIntersection, pointInRing } from "../geo/polygon";
import { importOsm } from "../imports/osm-import";
import type { RoadGraph } from "./graph";
import { roadGraphOf } from "./graph-bundle";
import { type Contour, isochrones } from "./isochrone";
import { MODES, type Mode } from "./profiles";
import { type Snap, arcsOfEdges, edgeIndex, snap } from "./snap";
import { dijkstraMany } from "./search";

/**
 * Isochrones against the engine's own one-to-all search: every road point the search reaches
 * within the minutes lies inside the contour, and road points it reaches later (or never) that
 * lie well away from every point reached in time lie outside; the rings are closed and do not
 * cross themselves. On random towns (every mode, turn restrictions) and, when the shared
 * extracts are present, on Andorra.
 */

const inside = (c: Contour, lng: number, lat: number) =>
  c.polygons.some(
    ([outer, ...holes]) => pointInRing(lng, lat, outer!) && !holes.some((h) => pointInRing(lng, lat, h)),
  );

/** Points every `step` meters along every edge the mode may use, as snapped targets. */
function roadPoints(g: RoadGraph, mode: Mode, step: number): Snap[] {
  const arcs = arcsOfEdges(g);
  const out: Snap[] = [];
  for (let e = 0; e < g.edgeLength.length; e++) {
    const [forwardArc, backwardArc] = [arcs[2 * e]!, arcs[2 * e + 1]!];
    if (g.seconds[mode][forwardArc] === Infinity && g.seconds[mode][backwardArc] === Infinity) continue;
    const first = g.edgeFirstPoint[e]!;
    const last = g.edgeFirstPoint[e + 1]! - 1;
    let walked = 0;
    for (let p = first; p < last; p++) {
      const [aLng, aLat, bLng, bLat] = [
        g.pointLng[p]!,
        g.pointLat[p]!,
        g.pointLng[p + 1]!,
        g.pointLat[p + 1]!,
      ];
      const segment = haversine(aLng, aLat, bLng, bLat);
      const n = Math.max(1, Math.ceil(segment / step));
      for (let i = 0; i < n; i++) {
        const f = i / n;
        const t = g.edgeLength[e]! > 0 ? (walked + f * segment) / g.edgeLength[e]! : 0;
        out.push({
          edge: e,
          t: Math.min(1, t),
          lng: aLng + f * (bLng - aLng),
          lat: aLat + f * (bLat - aLat),
          distance: 0,
          forwardArc,
          backwardArc,
        });
      }
      walked += segment;
    }
  }
  return out;
}

/**
 * Checks a contour against the search's times to every road point: in time → inside; later or
 * never, and more than `clear` meters from every point reached in time → outside.
 */
function check(g: RoadGraph, mode: Mode, from: Snap, contour: Contour, clear: number, step: number) {
  const points = roadPoints(g, mode, step);
  const legs = dijkstraMany(g, mode, from, points);
  const limit = contour.minutes * 60;
  const reached = points.filter((_, i) => legs[i] && legs[i].seconds <= limit);
  let ins = 0;
  let outs = 0;
  points.forEach((p, i) => {
    const leg = legs[i];
    if (leg && leg.seconds <= limit) {
      expect(inside(contour, p.lng, p.lat), `${mode}: reached in ${leg.seconds} s at ${p.lng},${p.lat}`).toBe(
        true,
      );
      ins++;
    } else if (reached.every((r) => haversine(r.lng, r.lat, p.lng, p.lat) > clear)) {
      expect(inside(contour, p.lng, p.lat), `${mode}: not reached in time at ${p.lng},${p.lat}`).toBe(false);
      outs++;
    }
  });
  for (const polygon of contour.polygons) {
    for (const ring of polygon) {
      expect(ring[0]).toEqual(ring[ring.length - 1]);
      expect(findSelfIntersection(ring)).toBeFalsy();
    }
  }
  return { ins, outs };
}

describe("isochrones", () => {
  for (const seed of [1, 2, 3]) {
    it(`enclose every road point reached in time and leave out those well away, random town ${seed}`, () => {
      const { graph, random } = randomTown(seed);
      const index = edgeIndex(graph);
      const arcs = arcsOfEdges(graph);
      for (const mode of MODES) {
        const at = () => random() * (SIZE - 1) * STEP;
        let from: Snap | undefined;
        while (!from) from = snap(graph, index, arcs, at(), at(), mode, 80);
        const minutes = mode === "car" ? [0.5, 1] : mode === "bike" ? [1, 2] : [3, 5];
        const contours = isochrones(graph, mode, from, minutes);
        expect(contours.map((c) => c.minutes)).toEqual(minutes);
        let outs = 0;
        for (const c of contours) {
          expect(c.polygons.length).toBeGreaterThan(0);
          const r = check(graph, mode, from, c, 150, 10);
          expect(r.ins).toBeGreaterThan(0);
          outs += r.outs;
        }
        // The smaller contour leaves something out in every town.
        expect(outs, mode).toBeGreaterThan(0);
      }
    });
  }
});

const shared = path.resolve("../shared/data/osm/andorra-2021.osm.pbf");

describe.runIf(existsSync(shared))("isochrones on Andorra (shared extract)", () => {
  it("enclose every road point a car reaches in 10 minutes from Andorra la Vella, and leave out Pas de la Casa", async () => {
    const summary = await importOsm(shared, { dir: mkdtempSync(path.join(tmpdir(), "isochrone-")) });
    const g = roadGraphOf(new Bundle(summary.file))!;
    const from = snap(g, edgeIndex(g), arcsOfEdges(g), 1.5218, 42.5063, "car", 200)!;
    const [ten] = isochrones(g, "car", from, [10]);
    const { ins, outs } = check(g, "car", from, ten!, 400, 50);
    expect(ins).toBeGreaterThan(100);
    expect(outs).toBeGreaterThan(100);
    expect(inside(ten!, 1.5218, 42.5063)).toBe(true);
    expect(inside(ten!, 1.7335, 42.5427)).toBe(false); // Pas de la Casa, 30 km by road
  }, 120_000);
});
