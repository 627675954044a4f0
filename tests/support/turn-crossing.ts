import { type RoutableWay, turnRestrictionOf } from "../../server/routing/graph";
import { buildGraph } from "../../server/routing/graph-build";
import { type Mode, wayProfile } from "../../server/routing/profiles";
import { arcsOfEdges, edgeIndex, snap } from "../../server/routing/snap";

/**
 * A crossing with turn restrictions, for the routing unit tests: X(2) with arms W(1) and E(3)
 * (way 100), N(4) (101), S(5) (102), and a lane from E round by the corner (6) to N (103). Turning
 * left from way 100 onto 101 is banned (no_left_turn); from 102 only straight on to 100
 * (only_straight_on). 0.001° ≈ 111 m.
 */
const P: Record<number, [number, number]> = {
  1: [-0.001, 0], // W
  2: [0, 0], // X
  3: [0.001, 0], // E
  4: [0, 0.001], // N
  5: [0, -0.001], // S
  6: [0.001, 0.001], // NE corner
};

export function turnCrossing() {
  const way = (id: number, nodes: number[]): RoutableWay => ({
    id,
    nodes,
    lngs: nodes.map((n) => P[n]![0]),
    lats: nodes.map((n) => P[n]![1]),
    profile: wayProfile({ highway: "residential" })!,
  });
  const member = (ref: number, role: string) => ({ type: role === "via" ? "node" : "way", ref, role });
  const graph = buildGraph(
    [way(100, [1, 2, 3]), way(101, [2, 4]), way(102, [2, 5]), way(103, [3, 6, 4])],
    new Map(),
    [
      turnRestrictionOf({ type: "restriction", restriction: "no_left_turn" }, [
        member(100, "from"),
        member(2, "via"),
        member(101, "to"),
      ])!,
      turnRestrictionOf({ type: "restriction", restriction: "only_straight_on" }, [
        member(102, "from"),
        member(2, "via"),
        member(100, "to"),
      ])!,
    ],
  );
  const index = edgeIndex(graph);
  const arcs = arcsOfEdges(graph);
  /** A point a couple of meters from node `node` towards node `towards`, snapped for the mode. */
  const point = (node: number, towards: number, mode: Mode) => {
    const [a, b] = [P[node]!, P[towards]!];
    return snap(graph, index, arcs, a[0] + 0.02 * (b[0] - a[0]), a[1] + 0.02 * (b[1] - a[1]), mode, 50)!;
  };
  return { graph, point };
}
