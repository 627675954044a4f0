/** Every node's location during an import, in chunks of typed arrays (16 bytes a node). */

/** Nodes per chunk of NodeLocations (16 MB a chunk). */
const CHUNK_BITS = 20;
const CHUNK = 1 << CHUNK_BITS;
const MASK = CHUNK - 1;

/**
 * Every node's location, in typed arrays rather than a Map: 16 bytes a node instead of about 80.
 * In chunks of a million nodes, so a country's 90 million never need one array grown by copying
 * (which held the old and the new, twice as large, at once: 3 GB for 90 million nodes).
 */
export class NodeLocations {
  private idChunks: Float64Array[] = [];
  private coordChunks: Int32Array[] = [];
  private n = 0;
  private sorted = true;
  private lastId = -Infinity;

  add(id: number, lon: number, lat: number) {
    const k = this.n & MASK;
    if (k === 0) {
      this.idChunks.push(new Float64Array(CHUNK));
      this.coordChunks.push(new Int32Array(2 * CHUNK));
    }
    if (id < this.lastId) this.sorted = false;
    this.lastId = id;
    this.idChunks.at(-1)![k] = id;
    const coords = this.coordChunks.at(-1)!;
    coords[2 * k] = Math.round(lon * 1e7);
    coords[2 * k + 1] = Math.round(lat * 1e7);
    this.n++;
  }

  get size() {
    return this.n;
  }

  private id(i: number): number {
    return this.idChunks[i >>> CHUNK_BITS]![i & MASK]!;
  }

  /** PBF files from osmium and osmosis are sorted by id; others are sorted once here. */
  seal() {
    if (this.sorted) return;
    const n = this.n;
    const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => this.id(a) - this.id(b));
    const ids = this.idChunks.map(() => new Float64Array(CHUNK));
    const coords = this.coordChunks.map(() => new Int32Array(2 * CHUNK));
    order.forEach((from, to) => {
      ids[to >>> CHUNK_BITS]![to & MASK] = this.id(from);
      const src = this.coordChunks[from >>> CHUNK_BITS]!;
      const dst = coords[to >>> CHUNK_BITS]!;
      dst[2 * (to & MASK)] = src[2 * (from & MASK)]!;
      dst[2 * (to & MASK) + 1] = src[2 * (from & MASK) + 1]!;
    });
    this.idChunks = ids;
    this.coordChunks = coords;
    this.sorted = true;
  }

  /** A node's location, when the extract holds it. */
  position(id: number): [number, number] | undefined {
    const i = this.indexOf(id);
    return i < 0 ? undefined : this.at(i);
  }

  /** The index of a node's location, or -1 when the extract does not hold it. */
  indexOf(id: number): number {
    let lo = 0;
    let hi = this.n - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = this.id(mid);
      if (v === id) return mid;
      if (v < id) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /** The location at an index of indexOf. */
  at(k: number): [number, number] {
    const coords = this.coordChunks[k >>> CHUNK_BITS]!;
    const o = 2 * (k & MASK);
    return [coords[o]! / 1e7, coords[o + 1]! / 1e7];
  }

  /** Frees the locations (the road graph is built from the roads' own copies). */
  clear() {
    this.idChunks = [];
    this.coordChunks = [];
    this.n = 0;
  }

  /** The way's line packed as [lng, lat, …]; null when a node is missing from the extract. */
  line(refs: number[]): Float64Array | null {
    const out = new Float64Array(refs.length * 2);
    for (let i = 0; i < refs.length; i++) {
      const k = this.indexOf(refs[i]!);
      if (k < 0) return null;
      const coords = this.coordChunks[k >>> CHUNK_BITS]!;
      const o = 2 * (k & MASK);
      out[2 * i] = coords[o]! / 1e7;
      out[2 * i + 1] = coords[o + 1]! / 1e7;
    }
    return out;
  }
}
