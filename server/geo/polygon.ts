import Flatbush from "flatbush";
import { type BBox, type Position, haversine, localProjection } from "./distance";

/** Planar ring operations in lng/lat degrees (rings are small next to the Earth's curvature). */

export function ringBBox(ring: readonly Position[]): BBox {
  let minLng = Infinity;
  let minLat = Infinity;
  let maxLng = -Infinity;
  let maxLat = -Infinity;
  for (const [lng, lat] of ring) {
    if (lng < minLng) minLng = lng;
    if (lng > maxLng) maxLng = lng;
    if (lat < minLat) minLat = lat;
    if (lat > maxLat) maxLat = lat;
  }
  return { minLng, minLat, maxLng, maxLat };
}

/** Even-odd test; `ring` is closed (first = last). */
export function pointInRing(lng: number, lat: number, ring: readonly Position[]): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i]!;
    const [xj, yj] = ring[j]!;
    if (yi > lat !== yj > lat && lng < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** The same test on a ring packed as [lng0, lat0, lng1, lat1, …] (large region shapes). */
export function pointInPackedRing(lng: number, lat: number, ring: Float64Array): boolean {
  let inside = false;
  const n = ring.length;
  for (let i = 0, j = n - 2; i < n; j = i, i += 2) {
    const xi = ring[i]!;
    const yi = ring[i + 1]!;
    const xj = ring[j]!;
    const yj = ring[j + 1]!;
    if (yi > lat !== yj > lat && lng < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/**
 * A packed ring with its edges bucketed by latitude band, so the even-odd test reads only the
 * edges of the point's band, not a country's coastline of thousands of vertices
 * (docs/performance.md).
 */
export interface BandedRing {
  coords: Float64Array;
  minLat: number;
  bandHeight: number;
  /** band k's edges are edges[offsets[k]..offsets[k+1]]: indexes (into coords) of first points */
  offsets: Uint32Array;
  edges: Uint32Array;
}

/** About 16 vertices per band, at most `maxBands` bands: small rings get one. */
export function bandRing(coords: Float64Array, maxBands = 128): BandedRing {
  let minLat = Infinity;
  let maxLat = -Infinity;
  for (let i = 1; i < coords.length; i += 2) {
    minLat = Math.min(minLat, coords[i]!);
    maxLat = Math.max(maxLat, coords[i]!);
  }
  const bandCount = Math.max(1, Math.min(maxBands, Math.floor(coords.length / 32)));
  const bandHeight = (maxLat - minLat) / bandCount || 1;
  const bandOf = (lat: number) =>
    Math.min(bandCount - 1, Math.max(0, Math.floor((lat - minLat) / bandHeight)));
  const n = coords.length;
  const counts = new Uint32Array(bandCount + 1);
  const each = (visit: (band: number, i: number) => void) => {
    for (let i = 0, j = n - 2; i < n; j = i, i += 2) {
      const a = coords[i + 1]!;
      const b = coords[j + 1]!;
      for (let k = bandOf(Math.min(a, b)); k <= bandOf(Math.max(a, b)); k++) visit(k, i);
    }
  };
  each((k) => counts[k + 1]!++);
  for (let k = 0; k < bandCount; k++) counts[k + 1]! += counts[k]!;
  const offsets = counts.slice();
  const edges = new Uint32Array(offsets[bandCount]!);
  const fill = offsets.slice(0, bandCount);
  each((k, i) => (edges[fill[k]!++] = i));
  return { coords, minLat, bandHeight, offsets, edges };
}

/** pointInPackedRing on a banded ring: the same answer, reading one band's edges. */
export function pointInBandedRing(lng: number, lat: number, ring: BandedRing): boolean {
  const k = Math.floor((lat - ring.minLat) / ring.bandHeight);
  if (k < 0 || k >= ring.offsets.length - 1) return false;
  const c = ring.coords;
  const n = c.length;
  let inside = false;
  for (let e = ring.offsets[k]!, end = ring.offsets[k + 1]!; e < end; e++) {
    const i = ring.edges[e]!;
    const j = i === 0 ? n - 2 : i - 2;
    const xi = c[i]!;
    const yi = c[i + 1]!;
    const xj = c[j]!;
    const yj = c[j + 1]!;
    if (yi > lat !== yj > lat && lng < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** Distance in meters from a point to a closed ring's area: 0 inside, else to the nearest edge. */
export function distanceToRing(lng: number, lat: number, ring: readonly Position[]): number {
  return pointInRing(lng, lat, ring) ? 0 : distanceToEdge(lng, lat, ring);
}

/** Meters from a point to the boundary: positive inside the ring, negative outside. */
export function signedDistanceToRing(lng: number, lat: number, ring: readonly Position[]): number {
  const d = distanceToEdge(lng, lat, ring);
  return pointInRing(lng, lat, ring) ? d : -d;
}

/** Distance in meters from a point to the nearest edge of a ring. */
export function distanceToEdge(lng: number, lat: number, ring: readonly Position[]): number {
  return nearestOnPath(lng, lat, ring).distance;
}

/** The point of a path (a line, or a ring's edges) nearest to a point, and its distance in meters. */
export function nearestOnPath(
  lng: number,
  lat: number,
  path: readonly Position[],
): { distance: number; position: Position } {
  const project = localProjection(lng, lat);
  let best = { distance: Infinity, position: path[0]! };
  let prev = project(path[0]!);
  if (path.length === 1) return { distance: Math.hypot(...prev), position: path[0]! };
  for (let i = 1; i < path.length; i++) {
    const cur = project(path[i]!);
    const { distance, t } = nearestOnSegment(prev, cur);
    if (distance < best.distance) {
      const [a, b] = [path[i - 1]!, path[i]!];
      best = { distance, position: [a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])] };
    }
    prev = cur;
  }
  return best;
}

/** The origin's nearest point on segment ab (as a fraction t of the way), all in meters. */
function nearestOnSegment(a: [number, number], b: [number, number]): { distance: number; t: number } {
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const len2 = dx * dx + dy * dy;
  let t = len2 === 0 ? 0 : -(a[0] * dx + a[1] * dy) / len2;
  t = Math.max(0, Math.min(1, t));
  return { distance: Math.hypot(a[0] + t * dx, a[1] + t * dy), t };
}

/** Area in m² and the area-weighted centroid, computed in a projection centred on the ring. */
export function ringAreaAndCentroid(ring: readonly Position[]): { area: number; centroid: Position } {
  const box = ringBBox(ring);
  const lng0 = (box.minLng + box.maxLng) / 2;
  const lat0 = (box.minLat + box.maxLat) / 2;
  const project = localProjection(lng0, lat0);
  const pts = ring.map(project);
  let twiceArea = 0;
  let cx = 0;
  let cy = 0;
  for (let i = 0; i < pts.length - 1; i++) {
    const [x0, y0] = pts[i]!;
    const [x1, y1] = pts[i + 1]!;
    const cross = x0 * y1 - x1 * y0;
    twiceArea += cross;
    cx += (x0 + x1) * cross;
    cy += (y0 + y1) * cross;
  }
  const area = Math.abs(twiceArea) / 2;
  if (area === 0) return { area, centroid: [lng0, lat0] };
  const [kx, ky] = project([lng0 + 1, lat0 + 1]);
  return {
    area,
    centroid: [lng0 + cx / (3 * twiceArea) / kx, lat0 + cy / (3 * twiceArea) / ky],
  };
}

/** The largest distance in meters from `center` to any position of the ring. */
export function farthestDistance(center: Position, ring: readonly Position[]): number {
  let max = 0;
  for (const p of ring) max = Math.max(max, haversine(center[0], center[1], p[0], p[1]));
  return max;
}

function orient(a: Position, b: Position, c: Position): number {
  const v = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
  return v > 0 ? 1 : v < 0 ? -1 : 0;
}

function onSegment(a: Position, b: Position, p: Position): boolean {
  return (
    Math.min(a[0], b[0]) <= p[0] &&
    p[0] <= Math.max(a[0], b[0]) &&
    Math.min(a[1], b[1]) <= p[1] &&
    p[1] <= Math.max(a[1], b[1])
  );
}

/** Whether closed segments ab and cd share any point. */
export function segmentsIntersect(a: Position, b: Position, c: Position, d: Position): boolean {
  const o1 = orient(a, b, c);
  const o2 = orient(a, b, d);
  const o3 = orient(c, d, a);
  const o4 = orient(c, d, b);
  if (o1 !== o2 && o3 !== o4) return true;
  return (
    (o1 === 0 && onSegment(a, b, c)) ||
    (o2 === 0 && onSegment(a, b, d)) ||
    (o3 === 0 && onSegment(c, d, a)) ||
    (o4 === 0 && onSegment(c, d, b))
  );
}

/**
 * The first pair of edges of a closed ring that cross or touch (other than neighbours sharing
 * their common vertex), or null. Edges are indexed with Flatbush so a 2,000-position ring is
 * checked in about n log n rather than n² comparisons.
 */
export function findSelfIntersection(ring: readonly Position[]): [number, number] | null {
  const n = ring.length - 1; // number of edges; edge i runs from ring[i] to ring[i + 1]
  const index = new Flatbush(n);
  for (let i = 0; i < n; i++) {
    const a = ring[i]!;
    const b = ring[i + 1]!;
    index.add(Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[0], b[0]), Math.max(a[1], b[1]));
  }
  index.finish();
  for (let i = 0; i < n; i++) {
    const a = ring[i]!;
    const b = ring[i + 1]!;
    const hits = index.search(
      Math.min(a[0], b[0]),
      Math.min(a[1], b[1]),
      Math.max(a[0], b[0]),
      Math.max(a[1], b[1]),
    );
    for (const j of hits) {
      if (j <= i) continue;
      const c = ring[j]!;
      const d = ring[j + 1]!;
      const adjacent = j === i + 1 || (i === 0 && j === n - 1);
      if (adjacent) {
        // Neighbours share one vertex; they are invalid only if they fold back over each other.
        const shared = j === i + 1 ? b : a;
        const other1 = j === i + 1 ? a : b;
        const other2 = j === i + 1 ? d : c;
        if (orient(shared, other1, other2) === 0 && foldsBack(shared, other1, other2)) return [i, j];
        continue;
      }
      if (segmentsIntersect(a, b, c, d)) return [i, j];
    }
  }
  return null;
}

/** Collinear edges from `shared` towards p and q overlap when p and q lie on the same side. */
function foldsBack(shared: Position, p: Position, q: Position): boolean {
  const dot = (p[0] - shared[0]) * (q[0] - shared[0]) + (p[1] - shared[1]) * (q[1] - shared[1]);
  return dot > 0;
}
