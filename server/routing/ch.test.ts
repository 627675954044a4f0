import { describe, expect, it } from "vitest";
import { MODES } from "./profiles";
import { SIZE, STEP, randomTown } from "../../tests/support/random-town";
import { haversine } from "../geo/distance";
import { turnCrossing } from "../../tests/support/turn-crossing";
import { hierarchyMatrix, hierarchyRoute } from "./ch-query";
import { contract } from "./contract";
import { type Snap, arcsOfEdges, edgeIndex, snap } from "./snap";
import { dijkstra } from "./search";

/**
 * The contraction hierarchies against the plain Dijkstra, on random towns: a grid of streets of
 * every kind (one-ways both ways, steps, footways, cycleways, a ferry), bollards, and turn
 * restrictions (no_ and only_) at random junctions. Each must find exactly the Dijkstra's
 * fastest time (or none where it finds none), and lines as long as the distances.
 */

const close = (a: number, b: number) => Math.abs(a - b) <= 1e-6 * Math.max(1, a);
const lengthOf = (path: [number, number][]) =>
  path.slice(1).reduce((sum, p, i) => sum + haversine(path[i]![0], path[i]![1], p[0], p[1]), 0);

describe("contraction hierarchies", () => {
  for (const seed of [1, 2, 3]) {
    it(`answers as the Dijkstra does on random town ${seed}, routes and matrices, every mode`, () => {
      const { graph, random } = randomTown(seed);
      expect(graph.turnBans.length).toBeGreaterThan(0);
      const index = edgeIndex(graph);
      const arcs = arcsOfEdges(graph);
      for (const mode of MODES) {
        const h = contract(graph, mode);
        const points: Snap[] = [];
        while (points.length < 40) {
          // A third of the points at junctions (leaving and reached by any arc there), the rest anywhere.
          const junction = random() < 0.33;
          const at = () => (junction ? Math.floor(random() * SIZE) : random() * (SIZE - 1)) * STEP;
          const s = snap(graph, index, arcs, at(), at(), mode, 80);
          if (s) points.push(s);
        }
        let routed = 0;
        let unrouted = 0;
        const matrix = hierarchyMatrix(graph, h, mode, points.slice(0, 20), points.slice(20));
        for (let i = 0; i < 20; i++) {
          for (let j = 20; j < 40; j++) {
            const [a, b] = [points[i]!, points[j]!];
            const expected = dijkstra(graph, mode, a, b);
            const got = hierarchyRoute(graph, h, mode, a, b, { paths: true });
            const cell = matrix[i]![j - 20];
            const what = `${mode} ${i}→${j}`;
            expect(got === undefined, what).toBe(expected === undefined);
            expect(cell === undefined, what).toBe(expected === undefined);
            if (!expected || !got || !cell) {
              unrouted++;
              continue;
            }
            routed++;
            expect(
              close(got.seconds, expected.seconds),
              `${what}: ${got.seconds} vs ${expected.seconds}`,
            ).toBe(true);
            expect(close(cell.seconds, expected.seconds), what).toBe(true);
            // Equally fast routes may differ in length; the line is the route's own.
            const path = got.path!;
            expect(haversine(...path[0]!, a.lng, a.lat), what).toBeLessThan(0.01);
            expect(haversine(...path[path.length - 1]!, b.lng, b.lat), what).toBeLessThan(0.01);
            expect(Math.abs(lengthOf(path) - got.meters), what).toBeLessThan(1);
          }
        }
        // The towns are meant to have both: routes, and places a mode cannot reach or leave.
        expect(routed, mode).toBeGreaterThan(150);
        if (mode === "car") expect(unrouted).toBeGreaterThan(0);
      }
    });
  }

  it("keeps every turn restriction: no_ and only_ at one crossing", () => {
    // tests/support/turn-crossing.ts: no left from way 100 onto 101; from 102 only straight on.
    const { graph: g, point: at } = turnCrossing();
    const h = contract(g, "car");
    const point = (node: number, towards: number) => at(node, towards, "car");
    const meters = (a: [number, number], b: [number, number]) =>
      hierarchyRoute(g, h, "car", point(...a), point(...b))!.meters;
    expect(Math.abs(meters([1, 2], [4, 2]) - 444)).toBeLessThan(5); // W X E, round to N: not left at X
    expect(Math.abs(meters([3, 2], [4, 2]) - 222)).toBeLessThan(5); // from E, the turn to N is allowed
    expect(Math.abs(meters([5, 2], [4, 2]) - 444)).toBeLessThan(5); // from S: only straight on
  });
});
