import { describe, expect, it } from "vitest";
import { type Barriers, buildGraph } from "./graph-build";
import { type RoutableWay, turnRestrictionOf } from "./graph";
import { ROADLAND_BARRIERS, ROADLAND_NODES, ROADLAND_WAYS } from "../../tests/support/road-fixture";
import { MODES, type Mode, type Tags, barrierBlocks, wayProfile } from "./profiles";
import { haversine } from "../geo/distance";
import { hierarchyMatrix, hierarchyRoute } from "./ch-query";
import { contract } from "./contract";
import { turnCrossing } from "../../tests/support/turn-crossing";
import { arcsOfEdges, edgeIndex, snap } from "./snap";
import { dijkstra, dijkstraMany } from "./search";
import { Heap } from "./heap";

/**
 * Roadland (tests/support/road-fixture.ts: one-ways, -1, steps, a bollard, a ferry) built
 * straight into a graph near 0°, 0° (0.001° ≈ 111 m), with an island H(11) ── I(12) beside it.
 */
const NODES: Record<number, [number, number]> = { ...ROADLAND_NODES, 11: [0.01, 0.01], 12: [0.011, 0.01] };

function way(nodes: number[], tags: Tags): RoutableWay {
  const lngs = nodes.map((n) => NODES[n]![0]);
  const lats = nodes.map((n) => NODES[n]![1]);
  let length = 0;
  for (let i = 1; i < nodes.length; i++) length += haversine(lngs[i - 1]!, lats[i - 1]!, lngs[i]!, lats[i]!);
  return { nodes, lngs, lats, profile: wayProfile(tags, length)! };
}

const barriers: Barriers = new Map(
  Object.entries(ROADLAND_BARRIERS).map(([id, tags]) => [
    Number(id),
    new Set(MODES.filter((m) => barrierBlocks(tags, m))),
  ]),
);
const graph = buildGraph(
  [...ROADLAND_WAYS.map((w) => way(w.refs, w.tags!)), way([11, 12], { highway: "residential" })],
  barriers,
);
const index = edgeIndex(graph);
const arcs = arcsOfEdges(graph);

/** A point on the road from node a towards node b, a metre or so from a (to be snapped there). */
const on = (a: number, b: number, mode: Mode) => {
  const [lngA, latA] = NODES[a]!;
  const [lngB, latB] = NODES[b]!;
  const f = 0.01 / Math.max(1, Math.hypot(lngB - lngA, latB - latA) / 0.001);
  return snap(graph, index, arcs, lngA + f * (lngB - lngA), latA + f * (latB - latA), mode, 200)!;
};
/** From node a (leaving towards a2) to node b (arriving from b2). */
const route = (a: [number, number], b: [number, number], mode: Mode, avoid = 0) =>
  dijkstra(graph, mode, on(a[0], a[1], mode), on(b[0], b[1], mode), avoid);
const meters = (a: [number, number], b: [number, number], mode: Mode, avoid = 0) =>
  route(a, b, mode, avoid)?.meters;
/** Within 5 m (the points sit a metre or so from the nodes). */
const near = (value: number | undefined, expected: number) =>
  expect(Math.abs((value ?? Infinity) - expected)).toBeLessThan(5);

describe("the road graph", () => {
  it("has a vertex per junction and way end, with the ways' shapes", () => {
    // 1, 3, 4, 6, 7 (barrier), 8, 2 (steps), 9, 10, 11, 12, 13, 14: node 5 is in the middle of a way.
    expect(graph.lng.length).toBe(13);
    expect(graph.edgeLength.length).toBe(11);
    expect(graph.head.length).toBe(22);
  });
});

describe("Dijkstra on the road graph", () => {
  it("follows one-way streets, and goes around them the other way", () => {
    near(meters([1, 2], [4, 3], "car"), 333); // A B C D
    near(meters([4, 5], [1, 5], "car"), 333); // D E A
    near(meters([4, 3], [3, 4], "car"), 555); // D E A B C: not against C→D
    near(meters([4, 3], [3, 4], "foot"), 111); // on foot, straight down
  });

  it("reads oneway=-1 against the way's drawing", () => {
    near(meters([3, 6], [6, 3], "car"), 111); // C→F is allowed
    expect(route([6, 3], [3, 6], "car")).toBeUndefined(); // F→C is not, and nothing else leads back
  });

  it("lets people take the steps and bikes push up them; cars cannot", () => {
    near(meters([9, 2], [1, 2], "foot"), 222);
    const pushed = route([9, 2], [1, 2], "bike")!;
    near(pushed.meters, 222);
    // 111 m of steps at 5 km/h (80 s) and 111 m of street at 16 km/h (25 s).
    expect(Math.abs(pushed.seconds - (80 + 25))).toBeLessThan(3);
    expect(on(9, 2, "car").edge).not.toBe(on(9, 2, "foot").edge); // a car there is snapped to a street
  });

  it("stops cars at a bollard, not bikes or people", () => {
    expect(route([6, 7], [8, 7], "car")).toBeUndefined();
    near(meters([6, 7], [8, 7], "bike"), 222);
    near(meters([6, 7], [8, 7], "foot"), 222);
  });

  it("takes ferries at their duration, unless avoided", () => {
    const ferry = route([3, 10], [10, 3], "car")!;
    expect(Math.abs(ferry.seconds - 600)).toBeLessThan(5);
    expect(route([3, 10], [10, 3], "car", 1)).toBeUndefined();
  });

  it("finds no route to an island", () => {
    expect(route([1, 2], [11, 12], "car")).toBeUndefined();
    expect(route([1, 2], [11, 12], "foot")).toBeUndefined();
  });

  it("routes along one edge between two points on it, and around when it is one-way", () => {
    const c = (lng: number, lat: number, mode: Mode) => snap(graph, index, arcs, lng, lat, mode, 50)!;
    const along = dijkstra(graph, "car", c(0.0003, 0, "car"), c(0.0007, 0, "car"))!;
    expect(along.meters).toBeCloseTo(44.5, 0);
    // On C→D (one-way), from near D back to near C: up to D, around the block, up from C.
    const back = dijkstra(graph, "car", c(0.002, 0.0008, "car"), c(0.002, 0.0002, "car"))!;
    near(back.meters, 22 + 222 + 111 + 222 + 22);
  });

  it("lets a point at a junction leave and be reached by any road there, not only its own edge", () => {
    // C snapped onto the one-way C→D (at its start), B onto Shore Road: C to B is 111 m, not
    // round the block; and B to C arrives at C from Shore Road, not along C→D.
    const [lngC, latC] = NODES[3]!;
    const upStreet = graph.head.findIndex(
      (_, a) =>
        graph.reversed[a] === 0 &&
        graph.edgeLength[graph.edgeOf[a]!]! > 100 &&
        graph.lng[graph.head[a]!] === NODES[4]![0] &&
        graph.lat[graph.head[a]!] === NODES[4]![1],
    );
    const c = snap(graph, index, arcs, lngC, latC, "car", 10, (e) => e === graph.edgeOf[upStreet])!;
    expect([c.edge, c.t]).toEqual([graph.edgeOf[upStreet], 0]);
    const b = on(2, 1, "car");
    near(dijkstra(graph, "car", c, b)!.meters, 111);
    near(dijkstra(graph, "car", b, c)!.meters, 111);
    // The contraction hierarchy (server/routing/ch.ts) too: routes and the matrix.
    const h = contract(graph, "car");
    near(hierarchyRoute(graph, h, "car", c, b)!.meters, 111);
    near(hierarchyRoute(graph, h, "car", b, c)!.meters, 111);
    const matrix = hierarchyMatrix(graph, h, "car", [c, b], [c, b]);
    expect(matrix[0]![0]!.meters).toBe(0);
    near(matrix[0]![1]!.meters, 111);
    near(matrix[1]![0]!.meters, 111);
  });

  it("snaps onto the road, part-way along it, not to the nearest junction", () => {
    const s = snap(graph, index, arcs, 0.0005, 0.0001, "car", 50)!;
    expect(s.lat).toBeCloseTo(0, 9);
    expect(s.lng).toBeCloseTo(0.0005, 9);
    expect(s.distance).toBeCloseTo(11.1, 0);
    expect(snap(graph, index, arcs, 0.0005, 0.01, "car", 50)).toBeUndefined();
  });
});

describe("the heap", () => {
  it("pops in key order", () => {
    const heap = new Heap(2);
    const keys = [5, 3, 9, 1, 7, 2, 8];
    keys.forEach((k, i) => heap.push(i, k));
    const out: number[] = [];
    while (heap.size) out.push(keys[heap.pop()]!);
    expect(out).toEqual([1, 2, 3, 5, 7, 8, 9]);
  });
});

describe("turn restrictions (cars)", () => {
  // tests/support/turn-crossing.ts: no left from way 100 onto 101; from 102 only straight on.
  const { graph: g, point } = turnCrossing();
  const trip = (a: [number, number], b: [number, number], mode: Mode) =>
    dijkstra(g, mode, point(a[0], a[1], mode), point(b[0], b[1], mode))?.meters;

  it("keeps cars from a banned turn: around the block instead", () => {
    near(trip([1, 2], [4, 2], "car"), 444); // W X E, round to N: not left at X
    near(trip([1, 2], [4, 2], "foot"), 222); // people turn
    near(trip([3, 2], [4, 2], "car"), 222); // from E, the turn to N is not banned
  });

  it("lets cars only go the way an only_ restriction says", () => {
    near(trip([5, 2], [1, 2], "car"), 222); // from S onto way 100 (to W): allowed
    near(trip([5, 2], [4, 2], "car"), 444); // from S to N: only onto way 100 (to E), then round the lane
    near(trip([5, 2], [4, 2], "foot"), 222);
  });

  it("reads restrictions from relations, leaving out what it cannot apply", () => {
    const members = [
      { type: "way", ref: 1, role: "from" },
      { type: "node", ref: 2, role: "via" },
      { type: "way", ref: 3, role: "to" },
    ];
    expect(turnRestrictionOf({ restriction: "no_u_turn" }, members)).toEqual({
      from: 1,
      via: 2,
      to: 3,
      only: false,
    });
    expect(turnRestrictionOf({ "restriction:motorcar": "only_right_turn" }, members)!.only).toBe(true);
    expect(
      turnRestrictionOf({ restriction: "no_left_turn", except: "bicycle;motorcar" }, members),
    ).toBeNull();
    expect(turnRestrictionOf({ "restriction:hgv": "no_left_turn" }, members)).toBeNull();
    const viaWay = members.map((m) => (m.role === "via" ? { ...m, type: "way" } : m));
    expect(turnRestrictionOf({ restriction: "no_left_turn" }, viaWay)).toBeNull();
  });
});

describe("route lines", () => {
  const lengthOf = (path: [number, number][]) =>
    path.slice(1).reduce((sum, p, i) => sum + haversine(path[i]![0], path[i]![1], p[0], p[1]), 0);

  it("follows the roads from the origin's point to the destination's, as long as the route", () => {
    const from = on(4, 3, "car");
    const to = on(3, 4, "car");
    const [leg] = dijkstraMany(graph, "car", from, [to], { paths: true });
    const path = leg!.path!;
    expect(path[0]).toEqual([from.lng, from.lat]);
    expect(path[path.length - 1]).toEqual([to.lng, to.lat]);
    // Round the block: through D, E (a shape point), A, B and C.
    for (const node of [4, 5, 1, 2, 3]) expect(path).toContainEqual(NODES[node]);
    expect(Math.abs(lengthOf(path) - leg!.meters)).toBeLessThan(1);
  });

  it("draws a trip along one edge as the stretch between the two points", () => {
    const c = (lng: number) => snap(graph, index, arcs, lng, 0, "car", 50)!;
    const [leg] = dijkstraMany(graph, "car", c(0.0003), [c(0.0015)], { paths: true });
    expect(leg!.path).toEqual([
      [0.0003, 0],
      [0.001, 0],
      [0.0015, 0],
    ]);
  });
});
