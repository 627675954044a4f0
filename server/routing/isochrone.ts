import { contours } from "d3-contour";
import simplify from "simplify-js";
import { haversine, type Position } from "../geo/distance";
import type { RoadGraph } from "./graph";
import type { Mode } from "./profiles";
import { type AvoidMask, dijkstraMany } from "./search";
import { type Snap } from "./snap";

/**
 * Isochrones (docs/routing.md#isochrones): the area reachable from a point within some minutes,
 * from the engine's own one-to-all search. Every road point the search reaches in time is drawn
 * onto a grid of travel times, each one lowering the times of the grid points around it (two
 * cells each way), so that the marching squares of d3-contour enclose it with a cell to spare;
 * the contours are then simplified by at most half a cell (simplify-js), which keeps every
 * reachable road point inside. Roads not reached and the land between roads far from any
 * reached one are holes. Pure: the graph and a snapped origin in, GeoJSON coordinates out.
 */

/** The most minutes an isochrone reaches (Radar's isochrone geofences: 5 to 60). */
export const ISOCHRONE_MINUTES = { min: 1, max: 60 } as const;

/** Grid cells across the reachable area's longer side at most, and their least size (meters). */
const GRID_CELLS = 320;
const MIN_CELL_M = 10;
/** Grid points around a road point that it lowers: from `DILATE` cells before it to `DILATE + 1` after. */
const DILATE = 2;

export interface Contour {
  minutes: number;
  /** MultiPolygon coordinates: polygons of rings, each `[lng, lat]` and closed; holes after their outer ring */
  polygons: Position[][][];
}

interface Sample {
  lng: number;
  lat: number;
  seconds: number;
}

/** An arc the search set out on: from `share` of it at `at` seconds. */
interface Reached {
  arc: number;
  share: number;
  at: number;
}

/** The arcs reachable within `seconds` (the engine's one-to-all search, run once). */
function reachedArcs(g: RoadGraph, mode: Mode, from: Snap, seconds: number, avoid: AvoidMask): Reached[] {
  const out: Reached[] = [];
  dijkstraMany(g, mode, from, [], {
    avoid,
    within: { seconds, arc: (arc, share, at) => out.push({ arc, share, at }) },
  });
  return out;
}

/** The road points of the reached arcs within `seconds`, every `step` meters along each and at its ends. */
function reachedPoints(
  g: RoadGraph,
  mode: Mode,
  from: Snap,
  reached: Reached[],
  seconds: number,
  step: number,
): Sample[] {
  const secs = g.seconds[mode];
  const out: Sample[] = [{ lng: from.lng, lat: from.lat, seconds: 0 }];
  for (const { arc: a, share, at } of reached) {
    const duration = secs[a]! * (1 - share);
    const reach = duration > 0 ? Math.min(1, (seconds - at) / duration) : 1;
    if (reach <= 0) continue;
    // The arc from `share` to where the time runs out, in the edge's own order.
    const edge = g.edgeOf[a]!;
    const forward = g.reversed[a] === 0;
    const end = share + (1 - share) * reach;
    const [t0, t1] = forward ? [share, end] : [1 - share, 1 - end];
    alongEdge(g, edge, t0, t1, step, (lng, lat, t) => {
      const u = forward ? t : 1 - t; // the share of the arc
      out.push({ lng, lat, seconds: at + Math.max(0, u - share) * secs[a]! });
    });
  }
  return out;
}

/**
 * Points along an edge's shape from share `t0` to share `t1` (either way), at most `step` meters
 * apart, both ends included; each with its share of the edge.
 */
function alongEdge(
  g: RoadGraph,
  edge: number,
  t0: number,
  t1: number,
  step: number,
  visit: (lng: number, lat: number, t: number) => void,
) {
  const first = g.edgeFirstPoint[edge]!;
  const last = g.edgeFirstPoint[edge + 1]! - 1;
  const length = g.edgeLength[edge]!;
  const [lo, hi] = t0 <= t1 ? [t0 * length, t1 * length] : [t1 * length, t0 * length];
  let walked = 0;
  for (let p = first; p < last; p++) {
    const [aLng, aLat, bLng, bLat] = [g.pointLng[p]!, g.pointLat[p]!, g.pointLng[p + 1]!, g.pointLat[p + 1]!];
    const segment = haversine(aLng, aLat, bLng, bLat);
    const [s0, s1] = [Math.max(lo, walked), Math.min(hi, walked + segment)];
    if (s1 >= s0 && segment > 0) {
      const n = Math.max(1, Math.ceil((s1 - s0) / step));
      for (let i = 0; i <= n; i++) {
        const d = s0 + ((s1 - s0) * i) / n;
        const f = (d - walked) / segment;
        visit(aLng + f * (bLng - aLng), aLat + f * (bLat - aLat), length > 0 ? d / length : 0);
      }
    }
    walked += segment;
    if (walked > hi) break;
  }
}

/**
 * The isochrones of a snapped origin for each of `minutes` (ascending or not), on one grid of
 * travel times. Empty polygons where nothing but the origin is reached.
 */
export function isochrones(
  g: RoadGraph,
  mode: Mode,
  from: Snap,
  minutes: number[],
  avoid: AvoidMask = 0,
): Contour[] {
  const limit = Math.max(...minutes) * 60;
  // One search; its arcs sampled coarsely find the extent, then finely for the grid.
  const reached = reachedArcs(g, mode, from, limit, avoid);
  const rough = reachedPoints(g, mode, from, reached, limit, 200);
  let [minLng, minLat, maxLng, maxLat] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const p of rough) {
    minLng = Math.min(minLng, p.lng);
    maxLng = Math.max(maxLng, p.lng);
    minLat = Math.min(minLat, p.lat);
    maxLat = Math.max(maxLat, p.lat);
  }
  const mPerLat = 111_320;
  const mPerLng = mPerLat * Math.cos((((minLat + maxLat) / 2) * Math.PI) / 180);
  const span = Math.max((maxLng - minLng) * mPerLng, (maxLat - minLat) * mPerLat);
  const cell = Math.max(MIN_CELL_M, span / GRID_CELLS);
  const [sx, sy] = [cell / mPerLng, cell / mPerLat];
  // The grid, with a margin of the dilation plus one cell all round (contours close inside it).
  const margin = DILATE + 2;
  const x0 = minLng - margin * sx;
  const y0 = minLat - margin * sy;
  const nx = Math.ceil((maxLng - minLng) / sx) + 2 * margin + 1;
  const ny = Math.ceil((maxLat - minLat) / sy) + 2 * margin + 1;
  const times = new Float64Array(nx * ny).fill(Infinity);
  // Samples half a cell apart: a road point's cell is next to its previous sample's, whose
  // dilation covers the corners of that cell and of its neighbours.
  for (const p of reachedPoints(g, mode, from, reached, limit, cell / 2)) {
    const ix = Math.floor((p.lng - x0) / sx);
    const iy = Math.floor((p.lat - y0) / sy);
    for (let y = iy - DILATE; y <= iy + DILATE + 1; y++) {
      for (let x = ix - DILATE; x <= ix + DILATE + 1; x++) {
        const i = y * nx + x;
        if (p.seconds < times[i]!) times[i] = p.seconds;
      }
    }
  }
  // d3-contour encloses values at or above a threshold: negated times. Unreached grid points
  // are well beyond the largest time, so boundaries fall close to the reached points.
  const beyond = -(limit * 1.5 + 60);
  const values = Array.from(times, (t) => (t === Infinity ? beyond : -t));
  const generator = contours().size([nx, ny]);
  // A contour coordinate (x, y) in cells: the grid value i sits at x = i + 0.5.
  const toLngLat = ([x, y]: [number, number]): Position => [
    Math.round((x0 + (x - 0.5) * sx) * 1e6) / 1e6,
    Math.round((y0 + (y - 0.5) * sy) * 1e6) / 1e6,
  ];
  return minutes.map((m) => {
    const shape = generator.contour(values, -m * 60);
    const polygons = shape.coordinates.map((polygon) =>
      polygon.map((ring) => simplifiedRing(ring as [number, number][]).map(toLngLat)),
    );
    return { minutes: m, polygons };
  });
}

/** A ring simplified by at most half a cell (Douglas–Peucker), still closed, never below a triangle. */
function simplifiedRing(ring: [number, number][]): [number, number][] {
  const kept = simplify(
    ring.map(([x, y]) => ({ x, y })),
    0.5,
    true,
  ).map((p): [number, number] => [p.x, p.y]);
  if (kept.length < 4) return ring;
  const [a, z] = [kept[0]!, kept[kept.length - 1]!];
  if (a[0] !== z[0] || a[1] !== z[1]) kept.push(a);
  return kept;
}
