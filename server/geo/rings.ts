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
  const rings: Float64Array[] = [];
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
  const take = (k: string, except: number): number | undefined => {
    const list = byEnd.get(k);
    return list?.find((j) => j !== except && open[j] !== null);
  };
  for (let start = 0; start < open.length; start++) {
    const first = open[start];
    if (!first) continue;
    open[start] = null;
    const parts: number[] = Array.from(first);
    const startKey = keyOf(first, 0);
    let endKey = keyOf(first, first.length - 2);
    while (endKey !== startKey) {
      const j = take(endKey, -1);
      if (j === undefined) return null;
      const next = open[j]!;
      open[j] = null;
      const forward = keyOf(next, 0) === endKey;
      const n = next.length;
      if (forward) for (let i = 2; i < n; i++) parts.push(next[i]!);
      else for (let i = n - 4; i >= 0; i -= 2) parts.push(next[i]!, next[i + 1]!);
      endKey = keyOf(next, forward ? n - 2 : 0);
    }
    if (parts.length >= 8) rings.push(Float64Array.from(parts));
  }
  return rings;
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
