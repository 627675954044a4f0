import { type BBox } from "./distance";
import { pointInPackedRing } from "./polygon";

/**
 * Areas from OpenStreetMap relations: the member ways of a multipolygon or boundary are joined
 * end to end into closed rings, and rings inside others become their holes. Written here rather
 * than taken from a library because the libraries that do it (osmtogeojson and kin) need the
 * whole extract as OSM JSON in memory; this works on the few ways of one relation at a time.
 *
 * Rings are packed as [lng0, lat0, lng1, lat1, …] and closed (first point = last point).
 */

/** One polygon: outer ring first, then its holes. */
export type PackedPolygon = Float64Array[];

const keyOf = (c: Float64Array, i: number) => `${c[i]},${c[i + 1]}`;

function isClosed(c: Float64Array): boolean {
  const n = c.length;
  return n >= 8 && c[0] === c[n - 2] && c[1] === c[n - 1];
}

/** Joins line strings that share end points into closed rings; null when one cannot close. */
export function joinRings(lines: Float64Array[]): Float64Array[] | null {
  const { rings, open } = joinLines(lines);
  return open.length ? null : rings;
}

/**
 * Joins line strings that share end points: the closed rings, and the chains that stay open (a
 * boundary cut by the extract, or with members outside it), each as long as the lines allow.
 */
export function joinLines(lines: Float64Array[]): { rings: Float64Array[]; open: Float64Array[] } {
  const rings: Float64Array[] = [];
  const chains: Float64Array[] = [];
  const open: (Float64Array | null)[] = [];
  const byEnd = new Map<string, number[]>();
  for (const line of lines) {
    if (line.length < 4) continue;
    if (isClosed(line)) {
      rings.push(line);
      continue;
    }
    const i = open.push(line) - 1;
    for (const k of [keyOf(line, 0), keyOf(line, line.length - 2)]) {
      const list = byEnd.get(k);
      if (list) list.push(i);
      else byEnd.set(k, [i]);
    }
  }
  const take = (k: string): Float64Array | undefined => {
    const j = byEnd.get(k)?.find((i) => open[i] !== null);
    if (j === undefined) return undefined;
    const line = open[j]!;
    open[j] = null;
    return line;
  };
  for (let start = 0; start < open.length; start++) {
    const first = open[start];
    if (!first) continue;
    open[start] = null;
    let parts: number[] = Array.from(first);
    let startKey = keyOf(first, 0);
    let endKey = keyOf(first, first.length - 2);
    // Onward from its end...
    while (endKey !== startKey) {
      const next = take(endKey);
      if (!next) break;
      const n = next.length;
      const forward = keyOf(next, 0) === endKey;
      if (forward) for (let i = 2; i < n; i++) parts.push(next[i]!);
      else for (let i = n - 4; i >= 0; i -= 2) parts.push(next[i]!, next[i + 1]!);
      endKey = keyOf(next, forward ? n - 2 : 0);
    }
    // ...and back from its start, when it did not close.
    while (endKey !== startKey) {
      const prev = take(startKey);
      if (!prev) break;
      const n = prev.length;
      const ends = keyOf(prev, n - 2) === startKey;
      const before: number[] = [];
      if (ends) for (let i = 0; i < n - 2; i++) before.push(prev[i]!);
      else for (let i = n - 2; i >= 2; i -= 2) before.push(prev[i]!, prev[i + 1]!);
      parts = [...before, ...parts];
      startKey = `${parts[0]},${parts[1]}`;
    }
    if (endKey === startKey) {
      if (parts.length >= 8) rings.push(Float64Array.from(parts));
    } else chains.push(Float64Array.from(parts));
  }
  return { rings, open: chains };
}

/**
 * A boundary the extract cut, closed along the extract's edge: its one open chain runs
 * from the edge (or from where the extract dropped its ways) round the area and back; it is
 * closed by going on from each end as its last stretch heads, to the extract's box (a maritime
 * boundary cut short at sea goes on out to sea, rather than to the nearest edge, which may be
 * across land), and along the box between them, on the side that puts `inside` (the boundary's
 * admin centre or label, which the extract holds) within the ring. Inside the extract the result is the boundary itself;
 * beyond its land it follows the box. Null when there is not exactly one open chain, or neither
 * side holds `inside`.
 */
export function closeAtExtent(
  lines: Float64Array[],
  extent: BBox,
  inside: [number, number],
): Float64Array[] | null {
  const { rings, open } = joinLines(lines);
  if (open.length !== 1) return null;
  const chain = open[0]!;
  const { minLng, minLat, maxLng, maxLat } = extent;
  const w = maxLng - minLng;
  const h = maxLat - minLat;
  const perimeter = 2 * (w + h);
  /** The nearest point of the box's edge, and where it lies along the edge (counterclockwise from the south-west corner). */
  const onEdge = (lng: number, lat: number): { at: number; point: [number, number] } => {
    const x = Math.min(Math.max(lng, minLng), maxLng);
    const y = Math.min(Math.max(lat, minLat), maxLat);
    const d = [y - minLat, maxLng - x, maxLat - y, x - minLng];
    const side = d.indexOf(Math.min(...d));
    if (side === 0) return { at: x - minLng, point: [x, minLat] };
    if (side === 1) return { at: w + (y - minLat), point: [maxLng, y] };
    if (side === 2) return { at: w + h + (maxLng - x), point: [x, maxLat] };
    return { at: 2 * w + h + (maxLat - y), point: [minLng, y] };
  };
  const corners: { at: number; point: [number, number] }[] = [
    { at: 0, point: [minLng, minLat] },
    { at: w, point: [maxLng, minLat] },
    { at: w + h, point: [maxLng, maxLat] },
    { at: 2 * w + h, point: [minLng, maxLat] },
  ];
  /** Where the ray from (x, y) heading (dx, dy) leaves the box; the nearest edge when it is outside or has no heading. */
  const exit = (x: number, y: number, dx: number, dy: number) => {
    const inBox = x >= minLng && x <= maxLng && y >= minLat && y <= maxLat;
    if (!inBox || (dx === 0 && dy === 0)) return onEdge(x, y);
    const tx = dx > 0 ? (maxLng - x) / dx : dx < 0 ? (minLng - x) / dx : Infinity;
    const ty = dy > 0 ? (maxLat - y) / dy : dy < 0 ? (minLat - y) / dy : Infinity;
    const t = Math.min(tx, ty);
    return onEdge(x + t * dx, y + t * dy);
  };
  const n = chain.length;
  const end = exit(
    chain[n - 2]!,
    chain[n - 1]!,
    chain[n - 2]! - chain[n - 4]!,
    chain[n - 1]! - chain[n - 3]!,
  );
  const start = exit(chain[0]!, chain[1]!, chain[0]! - chain[2]!, chain[1]! - chain[3]!);
  /** From the chain's end to its start along the box, one way round or the other. */
  const closing = (counterclockwise: boolean): number[] => {
    const span = counterclockwise
      ? (start.at - end.at + perimeter) % perimeter
      : (end.at - start.at + perimeter) % perimeter;
    const passed = corners
      .map((c) => ({
        c,
        d: counterclockwise
          ? (c.at - end.at + perimeter) % perimeter
          : (end.at - c.at + perimeter) % perimeter,
      }))
      .filter(({ d }) => d > 0 && d < span)
      .sort((a, b) => a.d - b.d)
      .flatMap(({ c }) => c.point);
    return [...end.point, ...passed, ...start.point, chain[0]!, chain[1]!];
  };
  for (const counterclockwise of [true, false]) {
    const ring = Float64Array.from([...chain, ...closing(counterclockwise)]);
    if (pointInPackedRing(inside[0], inside[1], ring)) return [...rings, ring];
  }
  return null;
}

/** Absolute planar area of a packed ring (degrees², only to order rings). */
function ringArea(c: Float64Array): number {
  let s = 0;
  for (let i = 0; i + 3 < c.length; i += 2) s += c[i]! * c[i + 3]! - c[i + 2]! * c[i + 1]!;
  return Math.abs(s / 2);
}

/**
 * Rings as polygons: a ring inside an odd number of others is a hole of the smallest one that
 * holds it. OSM's inner/outer roles are often missing or wrong, so containment decides.
 */
export function polygonsOf(rings: Float64Array[]): PackedPolygon[] {
  const sorted = rings.map((r) => ({ r, area: ringArea(r) })).sort((a, b) => b.area - a.area);
  const depth: number[] = [];
  const polygons: PackedPolygon[] = [];
  const polygonOf = new Map<number, number>();
  sorted.forEach(({ r }, i) => {
    let parent = -1;
    for (let j = i - 1; j >= 0; j--) {
      if (pointInPackedRing(r[0]!, r[1]!, sorted[j]!.r)) {
        parent = j;
        break;
      }
    }
    depth[i] = parent < 0 ? 0 : depth[parent]! + 1;
    if (depth[i]! % 2 === 0) {
      polygonOf.set(i, polygons.push([r]) - 1);
    } else {
      polygons[polygonOf.get(parent)!]!.push(r);
    }
  });
  return polygons;
}

export function packedBBox(polygons: PackedPolygon[]): BBox {
  let minLng = Infinity;
  let minLat = Infinity;
  let maxLng = -Infinity;
  let maxLat = -Infinity;
  for (const p of polygons) {
    const c = p[0]!;
    for (let i = 0; i < c.length; i += 2) {
      if (c[i]! < minLng) minLng = c[i]!;
      if (c[i]! > maxLng) maxLng = c[i]!;
      if (c[i + 1]! < minLat) minLat = c[i + 1]!;
      if (c[i + 1]! > maxLat) maxLat = c[i + 1]!;
    }
  }
  return { minLng, minLat, maxLng, maxLat };
}

/**
 * Polygons as one buffer of doubles: polygon count, then per polygon its ring count and each
 * ring's length, then all coordinates. Stored as a BLOB; decoding is a view, not a parse.
 */
export function encodePolygons(polygons: PackedPolygon[]): Buffer {
  const header: number[] = [polygons.length];
  let total = 0;
  for (const p of polygons) {
    header.push(p.length);
    for (const r of p) {
      header.push(r.length);
      total += r.length;
    }
  }
  const out = new Float64Array(header.length + total);
  out.set(header);
  let at = header.length;
  for (const p of polygons)
    for (const r of p) {
      out.set(r, at);
      at += r.length;
    }
  return Buffer.from(out.buffer);
}

/** The numbers of a stored blob, copied: SQLite's buffer need not be 8-byte aligned. */
export function floatsOf(blob: Uint8Array): Float64Array {
  return new Float64Array(blob.buffer.slice(blob.byteOffset, blob.byteOffset + blob.byteLength));
}

export function decodePolygons(blob: Uint8Array): PackedPolygon[] {
  const all = floatsOf(blob);
  let h = 0;
  const count = all[h++]!;
  const shape: number[][] = [];
  for (let p = 0; p < count; p++) {
    const rings = all[h++]!;
    const lengths: number[] = [];
    for (let r = 0; r < rings; r++) lengths.push(all[h++]!);
    shape.push(lengths);
  }
  let at = h;
  return shape.map((lengths) =>
    lengths.map((n) => {
      const ring = all.subarray(at, at + n);
      at += n;
      return ring;
    }),
  );
}

/** A packed ring as positions, for the ring functions of ./polygon.ts. */
export function positionsOf(c: Float64Array): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i < c.length; i += 2) out.push([c[i]!, c[i + 1]!]);
  return out;
}
