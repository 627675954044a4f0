import { type Barriers, buildGraph } from "../../server/routing/graph-build";
import { type RoutableWay, turnRestrictionOf, type TurnRestriction } from "../../server/routing/graph";
import { type Mode, type Tags, wayProfile } from "../../server/routing/profiles";
import { haversine } from "../../server/geo/distance";

/**
 * A random town for routing tests: a 9 × 9 grid of streets 0.001° (≈ 111 m) apart near 0°, 0°,
 * of every kind (one-ways both ways, steps, footways, cycleways, a private service road), cut
 * into ways of one to three blocks, with a ferry corner to corner, car bollards and turn
 * restrictions (no_ and only_) at random junctions. The same seed, the same town.
 */

export const SIZE = 9;
export const STEP = 0.001; // ≈ 111 m

export function randomTown(seed: number) {
  const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)]!;
  const id = (r: number, c: number) => r * SIZE + c + 1;
  const position = (n: number): [number, number] => [
    ((n - 1) % SIZE) * STEP,
    Math.floor((n - 1) / SIZE) * STEP,
  ];
  const ways: RoutableWay[] = [];
  const add = (nodes: number[], tags: Tags) => {
    const lngs = nodes.map((n) => position(n)[0]);
    const lats = nodes.map((n) => position(n)[1]);
    let length = 0;
    for (let i = 1; i < nodes.length; i++)
      length += haversine(lngs[i - 1]!, lats[i - 1]!, lngs[i]!, lats[i]!);
    const profile = wayProfile(tags, length);
    if (profile) ways.push({ id: ways.length + 1, nodes, lngs, lats, profile });
  };
  const kinds: Tags[] = [
    { highway: "residential" },
    { highway: "residential" },
    { highway: "residential" },
    { highway: "unclassified" },
    { highway: "residential" },
    { highway: "residential", oneway: "yes" },
    { highway: "primary", oneway: "-1" },
    { highway: "tertiary", oneway: "yes", "oneway:bicycle": "no" },
    { highway: "footway" },
    { highway: "steps" },
    { highway: "cycleway" },
    { highway: "service", access: "private" },
    { highway: "secondary", maxspeed: "70" },
  ];
  // Rows and columns cut into ways of one to three blocks.
  for (const across of [true, false]) {
    for (let line = 0; line < SIZE; line++) {
      let start = 0;
      while (start < SIZE - 1) {
        const end = Math.min(SIZE - 1, start + 1 + Math.floor(random() * 3));
        const nodes: number[] = [];
        for (let k = start; k <= end; k++) nodes.push(across ? id(line, k) : id(k, line));
        if (random() < 0.95) add(nodes, pick(kinds));
        start = end;
      }
    }
  }
  add([id(0, 0), id(SIZE - 1, SIZE - 1)], { route: "ferry", duration: "00:20" });
  const barriers: Barriers = new Map();
  for (let k = 0; k < 4; k++) barriers.set(1 + Math.floor(random() * SIZE * SIZE), new Set<Mode>(["car"]));
  // Restrictions: from one way through a node it shares onto another.
  const restrictions: TurnRestriction[] = [];
  for (let k = 0; k < 25; k++) {
    const via = 1 + Math.floor(random() * SIZE * SIZE);
    const through = ways.filter((w) => w.nodes.includes(via));
    if (through.length < 2) continue;
    const from = pick(through);
    const to = pick(through.filter((w) => w !== from));
    const r = turnRestrictionOf({ restriction: random() < 0.7 ? "no_left_turn" : "only_straight_on" }, [
      { type: "way", ref: from.id!, role: "from" },
      { type: "node", ref: via, role: "via" },
      { type: "way", ref: to.id!, role: "to" },
    ]);
    if (r) restrictions.push(r);
  }
  const graph = buildGraph(ways, barriers, restrictions);
  return { graph, random };
}
