import Flatbush from "flatbush";
import { haversine, localProjection } from "../geo/distance";
import type { RoadGraph } from "./graph";
import type { Mode } from "./profiles";

/**
 * Snapping a point onto the road graph (docs/routing.md#queries): the nearest edge a mode may
 * use, and a virtual vertex part-way along it, not the nearest junction.
 */

/** A point on an edge: `t` the share of the edge's length from its first vertex. */
export interface Snap {
  edge: number;
  t: number;
  lng: number;
  lat: number;
  /** meters from the point asked about */
  distance: number;
  /** the arcs along the edge: forward (first vertex to last) and backward */
  forwardArc: number;
  backwardArc: number;
}

/** An index of the edges' boxes, built once per graph. */
export function edgeIndex(g: RoadGraph): Flatbush {
  const E = g.edgeLength.length;
  const index = new Flatbush(Math.max(E, 1));
  for (let e = 0; e < E; e++) {
    let minLng = Infinity;
    let minLat = Infinity;
    let maxLng = -Infinity;
    let maxLat = -Infinity;
    for (let p = g.edgeFirstPoint[e]!; p < g.edgeFirstPoint[e + 1]!; p++) {
      minLng = Math.min(minLng, g.pointLng[p]!);
      maxLng = Math.max(maxLng, g.pointLng[p]!);
      minLat = Math.min(minLat, g.pointLat[p]!);
      maxLat = Math.max(maxLat, g.pointLat[p]!);
    }
    index.add(minLng, minLat, maxLng, maxLat);
  }
  if (E === 0) index.add(0, 0, 0, 0);
  index.finish();
  return index;
}

/** The two arcs of each edge, found once: arcsOfEdge[2e] forward, [2e + 1] backward. */
export function arcsOfEdges(g: RoadGraph): Uint32Array {
  const out = new Uint32Array(2 * g.edgeLength.length);
  for (let a = 0; a < g.head.length; a++) out[2 * g.edgeOf[a]! + g.reversed[a]!] = a;
  return out;
}

/** Where a point projects onto an edge's shape: the nearest point, its distance and share `t`. */
export function projectOnEdge(g: RoadGraph, e: number, lng: number, lat: number) {
  const project = localProjection(lng, lat);
  const first = g.edgeFirstPoint[e]!;
  const last = g.edgeFirstPoint[e + 1]! - 1;
  let best = { d2: Infinity, along: 0, x: 0, y: 0, lng: g.pointLng[first]!, lat: g.pointLat[first]! };
  let walked = 0;
  for (let p = first; p < last; p++) {
    const [ax, ay] = project([g.pointLng[p]!, g.pointLat[p]!]);
    const [bx, by] = project([g.pointLng[p + 1]!, g.pointLat[p + 1]!]);
    const dx = bx - ax;
    const dy = by - ay;
    const len2 = dx * dx + dy * dy;
    const u = len2 === 0 ? 0 : Math.max(0, Math.min(1, -(ax * dx + ay * dy) / len2));
    const x = ax + u * dx;
    const y = ay + u * dy;
    const d2 = x * x + y * y;
    const segment = haversine(g.pointLng[p]!, g.pointLat[p]!, g.pointLng[p + 1]!, g.pointLat[p + 1]!);
    if (d2 < best.d2) {
      best = {
        d2,
        along: walked + u * segment,
        x,
        y,
        lng: g.pointLng[p]! + u * (g.pointLng[p + 1]! - g.pointLng[p]!),
        lat: g.pointLat[p]! + u * (g.pointLat[p + 1]! - g.pointLat[p]!),
      };
    }
    walked += segment;
  }
  const length = g.edgeLength[e]!;
  return {
    distance: Math.sqrt(best.d2),
    t: length > 0 ? best.along / length : 0,
    lng: best.lng,
    lat: best.lat,
  };
}

/**
 * The nearest point within `reach` meters on an edge the mode may travel (either way), or
 * undefined. `usable` filters further (the main connected component, avoided edges). Looks
 * 50 m around first and widens fourfold until it finds one as near as it looked: an edge
 * outside the box looked in is farther than the box is wide.
 */
export function snap(
  g: RoadGraph,
  index: Flatbush,
  arcs: Uint32Array,
  lng: number,
  lat: number,
  mode: Mode,
  reach: number,
  usable: (edge: number) => boolean = () => true,
): Snap | undefined {
  const secs = g.seconds[mode];
  const metersPerDegreeLng = 111_320 * Math.max(0.01, Math.cos((lat * Math.PI) / 180));
  let best: Snap | undefined;
  for (let radius = Math.min(50, reach); ; radius = Math.min(reach, radius * 4)) {
    const dLat = radius / 111_320;
    const dLng = radius / metersPerDegreeLng;
    for (const e of index.search(lng - dLng, lat - dLat, lng + dLng, lat + dLat)) {
      if (e >= g.edgeLength.length || e === best?.edge) continue;
      const forwardArc = arcs[2 * e]!;
      const backwardArc = arcs[2 * e + 1]!;
      if (secs[forwardArc] === Infinity && secs[backwardArc] === Infinity) continue;
      if (!usable(e)) continue;
      const hit = projectOnEdge(g, e, lng, lat);
      if (hit.distance <= reach && (!best || hit.distance < best.distance)) {
        best = { edge: e, ...hit, forwardArc, backwardArc };
      }
    }
    if ((best && best.distance <= radius) || radius >= reach) return best;
  }
}

/** How near an end of its edge (meters) a snapped point is taken to be at that vertex. */
const AT_VERTEX_M = 0.01;

/**
 * The vertex a snapped point lies at (an end of its edge: the point asked about was at a
 * junction, or beyond a road's end), or -1. Such a point may leave or be reached by any arc of
 * the vertex, not only along its own edge.
 */
export function vertexAt(g: RoadGraph, s: Snap): number {
  const length = g.edgeLength[s.edge]!;
  if (s.t * length <= AT_VERTEX_M) return g.head[s.backwardArc]!;
  if ((1 - s.t) * length <= AT_VERTEX_M) return g.head[s.forwardArc]!;
  return -1;
}
