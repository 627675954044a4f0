import { haversine } from "../geo/distance";
import type { RoadGraph } from "./graph";
import type { Snap } from "./snap";

/** The lines of routes: part of an edge's shape, and a route's whole line from its arcs. */

/** The points of an edge's shape from share `t0` to share `t1` of its length (t1 < t0: backwards). */
export function shapeBetween(g: RoadGraph, edge: number, t0: number, t1: number): [number, number][] {
  const first = g.edgeFirstPoint[edge]!;
  const last = g.edgeFirstPoint[edge + 1]! - 1;
  const length = g.edgeLength[edge]!;
  // Distance along the edge at each shape point.
  const at: number[] = [0];
  for (let p = first; p < last; p++) {
    at.push(
      at[at.length - 1]! + haversine(g.pointLng[p]!, g.pointLat[p]!, g.pointLng[p + 1]!, g.pointLat[p + 1]!),
    );
  }
  const pointAt = (t: number): [number, number] => {
    const d = t * length;
    let i = 0;
    while (i < at.length - 2 && at[i + 1]! < d) i++;
    const span = at[i + 1]! - at[i]!;
    const f = span > 0 ? Math.min(1, Math.max(0, (d - at[i]!) / span)) : 0;
    const p = first + i;
    return [
      g.pointLng[p]! + f * (g.pointLng[p + 1]! - g.pointLng[p]!),
      g.pointLat[p]! + f * (g.pointLat[p + 1]! - g.pointLat[p]!),
    ];
  };
  const out: [number, number][] = [pointAt(t0)];
  const [lo, hi] = t0 <= t1 ? [t0, t1] : [t1, t0];
  const inner: [number, number][] = [];
  for (let i = 0; i <= last - first; i++) {
    const t = length > 0 ? at[i]! / length : 0;
    if (t > lo && t < hi) inner.push([g.pointLng[first + i]!, g.pointLat[first + i]!]);
  }
  out.push(...(t0 <= t1 ? inner : inner.reverse()), pointAt(t1));
  return out;
}

/** The arcs of a route found by the Dijkstra: back from the arrival through the states' parents. */
export function arcsOf(via: { state: number; arc: number }, parent: Int32Array, prev: Int32Array): number[] {
  // Along the origin's edge only.
  if (via.state < 0) return [];
  const arcs: number[] = [via.arc];
  for (let s = via.state; ; s = prev[s]!) {
    const p = parent[s]!;
    if (p < 0) {
      arcs.push(-1 - p);
      break;
    }
    arcs.push(p);
  }
  return arcs.reverse();
}

/**
 * A route's line from the origin's snapped point to the destination's: along `arcs`, the first
 * the origin's edge's (taken part-way), the last the destination's; none: along the origin's
 * edge only.
 */
export function lineAlong(g: RoadGraph, from: Snap, to: Snap, arcs: number[]): [number, number][] {
  if (!arcs.length) return shapeBetween(g, from.edge, from.t, to.t);
  const forward = (arc: number) => g.reversed[arc] === 0;
  const line: [number, number][] = [];
  const add = (points: [number, number][]) => {
    for (const pt of points) {
      const last = line[line.length - 1];
      if (!last || last[0] !== pt[0] || last[1] !== pt[1]) line.push(pt);
    }
  };
  add(shapeBetween(g, from.edge, from.t, forward(arcs[0]!) ? 1 : 0));
  for (const a of arcs.slice(1, -1))
    add(shapeBetween(g, g.edgeOf[a]!, forward(a) ? 0 : 1, forward(a) ? 1 : 0));
  const last = arcs[arcs.length - 1]!;
  add(shapeBetween(g, to.edge, forward(last) ? 0 : 1, to.t));
  return line;
}
