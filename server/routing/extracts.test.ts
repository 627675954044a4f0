import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { GeodataFile } from "../db/sqlite/geodata";
import { importOsm } from "../geodata/osm-import";
import type { RoadGraph } from "./graph";
import { MODES } from "./profiles";
import { hierarchyRoute } from "./ch";
import { type Snap, arcsOfEdges, dijkstra, edgeIndex, fastestRoute, snap } from "./search";

/**
 * Routing on the shared Andorra extract (skipped when ../shared/data is absent): the searches that
 * answer routes (the contraction hierarchy the import built, and the A* used with `avoid`) must
 * agree with the plain Dijkstra on random trips, for every mode, and routes are never shorter
 * than the straight line.
 */

const shared = path.resolve("../shared/data/osm/andorra-2021.osm.pbf");

describe.runIf(existsSync(shared))("routing on Andorra (shared extract)", () => {
  let g: RoadGraph;
  beforeAll(async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "routing-"));
    const summary = await importOsm(shared, { dir });
    g = new GeodataFile(summary.file).roadGraph()!;
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
