import type { TestOsm } from "./osm-pbf";

/**
 * Roadland: a small road network for routing tests, at sea in the Gulf of Guinea (2°E, 0.5°N,
 * away from the other fixtures). 0.001° ≈ 111 m. Node ids are the letters' numbers below:
 *
 *   E(5) ───────── D(4)
 *   │               ↑ one-way C→D
 *   A(1) ── B(2) ── C(3) ←── F(6) ── L(7, bollard) ── M(8)     (F–C: oneway=-1, so C→F only)
 *           │ steps  │ ferry, 10 min
 *           G(9)     J(10)
 *
 * and Far Lane N(13) ── O(14), 3 km to the north-east, alone: between the two, a point is among
 * Roadland's roads but more than 1 km from any.
 */
export const ROADLAND_ORIGIN = { lng: 2, lat: 0.5 };

/** Node positions relative to the origin ([lng, lat] degrees); the unit tests build on them too. */
export const ROADLAND_NODES: Record<number, [number, number]> = {
  1: [0, 0],
  2: [0.001, 0],
  3: [0.002, 0],
  4: [0.002, 0.001],
  5: [0, 0.001],
  6: [0.003, 0],
  7: [0.004, 0],
  8: [0.005, 0],
  9: [0.001, -0.001],
  10: [0.002, -0.01],
  13: [0.03, 0.03],
  14: [0.031, 0.03],
};

/** Where a node of Roadland is. */
export const roadland = (node: number) => ({
  lng: ROADLAND_ORIGIN.lng + ROADLAND_NODES[node]![0],
  lat: ROADLAND_ORIGIN.lat + ROADLAND_NODES[node]![1],
});

/** The ways: ids, node refs and tags (the unit tests build their graph from them too). */
export const ROADLAND_WAYS: TestOsm["ways"] = [
  { id: 1, refs: [1, 2, 3], tags: { highway: "residential", name: "Shore Road" } },
  { id: 2, refs: [3, 4], tags: { highway: "residential", oneway: "yes", name: "Up Street" } },
  { id: 3, refs: [4, 5, 1], tags: { highway: "residential", name: "Back Lane" } },
  { id: 4, refs: [6, 3], tags: { highway: "residential", oneway: "-1", name: "Reverse Way" } },
  { id: 5, refs: [2, 9], tags: { highway: "steps" } },
  { id: 6, refs: [6, 7, 8], tags: { highway: "residential", name: "Bollard Row" } },
  { id: 7, refs: [3, 10], tags: { route: "ferry", duration: "0:10" } },
  { id: 8, refs: [13, 14], tags: { highway: "residential", name: "Far Lane" } },
];

/** The barrier: a bollard at node 7. */
export const ROADLAND_BARRIERS: Record<number, Record<string, string>> = { 7: { barrier: "bollard" } };

export function roadlandOsm(): TestOsm {
  return {
    nodes: Object.keys(ROADLAND_NODES).map((k) => {
      const id = Number(k);
      const { lng, lat } = roadland(id);
      const tags = ROADLAND_BARRIERS[id];
      return { id, lon: lng, lat, ...(tags && { tags }) };
    }),
    ways: ROADLAND_WAYS,
    relations: [],
  };
}
