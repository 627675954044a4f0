/**
 * The layout of a contraction hierarchy (docs/routing.md#contraction-hierarchies): what
 * ./contract.ts builds at import, the bundle stores beside the road graph (./graph.ts), and
 * ./ch-query.ts searches.
 */

export interface Hierarchy {
  /** nodes V.. are copies of restricted vertices: copyArc[n - V] is the arc that enters the copy */
  copyArc: Uint32Array;
  /** per arc of the graph: the node its head is (its copy for a restricted head) */
  arcHeadNode: Uint32Array;
  /** the order of contraction: searches go only towards higher ranks */
  rank: Uint32Array;
  /** every arc of the hierarchy, the graph's (arcB = -1, arcA the graph's arc) and shortcuts (two halves) */
  arcTail: Uint32Array;
  arcHead: Uint32Array;
  arcSeconds: Float64Array;
  arcMeters: Float64Array;
  arcA: Int32Array;
  arcB: Int32Array;
  /** per node: the arcs leaving it upwards, and the arcs entering it from above */
  upFirst: Uint32Array;
  up: Uint32Array;
  downFirst: Uint32Array;
  down: Uint32Array;
}

/** The hierarchy's arrays by name and type (stored beside the graph's in the bundle). */
export const HIERARCHY_PARTS = {
  copyArc: Uint32Array,
  arcHeadNode: Uint32Array,
  rank: Uint32Array,
  arcTail: Uint32Array,
  arcHead: Uint32Array,
  arcSeconds: Float64Array,
  arcMeters: Float64Array,
  arcA: Int32Array,
  arcB: Int32Array,
  upFirst: Uint32Array,
  up: Uint32Array,
  downFirst: Uint32Array,
  down: Uint32Array,
} as const satisfies { [K in keyof Hierarchy]: { new (b: ArrayBuffer): Hierarchy[K] } };

/** The copies (nodes V..) of each restricted vertex, from the arcs that enter them. */
export function copiesOf(
  g: { lng: ArrayLike<number>; head: ArrayLike<number> },
  copyArc: ArrayLike<number>,
): Map<number, number[]> {
  const V = g.lng.length;
  const copies = new Map<number, number[]>();
  for (let i = 0; i < copyArc.length; i++) {
    const v = g.head[copyArc[i]!]!;
    let list = copies.get(v);
    if (!list) copies.set(v, (list = []));
    list.push(V + i);
  }
  return copies;
}
