import { closeSync, createReadStream, openSync, renameSync, writeSync } from "node:fs";
import { OSMTransform } from "osm-pbf-parser-node";
import {
  type Tags,
  type TestNode,
  type TestOsm,
  type TestRelation,
  type TestWay,
  headerBlock,
  nodesBlock,
  relationsBlock,
  waysBlock,
} from "../tests/support/osm-pbf";

/**
 * A country-sized extract made of a small real one (`npm run bench -- import
 * --synthetic N`): N copies of the source side by side on a grid, as one valid .osm.pbf sorted
 * by type then id, the way osmium writes them.
 *
 * - Copy c's node, way and relation ids are the source's plus c × ID_OFFSET, and its members and
 *   node references are offset alike, so every copy is a complete, separate extract.
 * - Copy 0 is the source unchanged (its answers can be compared with the source's own import);
 *   in copy c ≥ 1 every town is renamed (the names of places and administrative boundaries, and
 *   the addr:city and addr:place of addresses: renamedTown) and gets postcodes of its own, so
 *   addresses stay unique while street names repeat N times, as in a real country.
 *
 * The source is small (a few MB of PBF) and held in memory; the output is written block by
 * block (8,000 entities, zlib; the tests' PBF writer, tests/support/osm-pbf.ts), so writing
 * N = 300 copies needs no more memory than one.
 */

/** Apart enough for any real id: 10^10 > the largest OSM id (about 1.3 × 10^10 for nodes). */
export const ID_OFFSET = 2e10;
const BLOCK = 8000;

type SourceNode = TestNode;
type SourceWay = TestWay;
type SourceRelation = TestRelation;
interface Source extends TestOsm {
  bbox: { minLng: number; minLat: number; maxLng: number; maxLat: number };
}

async function readSource(file: string): Promise<Source> {
  const nodes: SourceNode[] = [];
  const ways: SourceWay[] = [];
  const relations: SourceRelation[] = [];
  const bbox = { minLng: Infinity, minLat: Infinity, maxLng: -Infinity, maxLat: -Infinity };
  const parser = createReadStream(file).pipe(
    new OSMTransform({ withTags: true, withInfo: false }),
  ) as AsyncIterable<
    (
      | ({ type: "node" } & SourceNode)
      | ({ type: "way" } & SourceWay)
      | ({ type: "relation" } & SourceRelation)
      | { type?: undefined }
    )[]
  >;
  for await (const batch of parser) {
    for (const item of batch) {
      if (item.type === "node") {
        nodes.push({
          id: item.id,
          lon: item.lon,
          lat: item.lat,
          ...(hasTags(item.tags) && { tags: item.tags }),
        });
        bbox.minLng = Math.min(bbox.minLng, item.lon);
        bbox.maxLng = Math.max(bbox.maxLng, item.lon);
        bbox.minLat = Math.min(bbox.minLat, item.lat);
        bbox.maxLat = Math.max(bbox.maxLat, item.lat);
      } else if (item.type === "way") {
        ways.push({ id: item.id, refs: item.refs, ...(hasTags(item.tags) && { tags: item.tags }) });
      } else if (item.type === "relation") {
        relations.push({
          id: item.id,
          members: item.members,
          ...(hasTags(item.tags) && { tags: item.tags }),
        });
      }
    }
  }
  const byId = (a: { id: number }, b: { id: number }) => a.id - b.id;
  nodes.sort(byId);
  ways.sort(byId);
  relations.sort(byId);
  return { nodes, ways, relations, bbox };
}

const hasTags = (tags: Tags | undefined): tags is Tags => !!tags && Object.keys(tags).length > 0;

const SYLLABLES = [
  "ba",
  "ke",
  "lo",
  "mi",
  "nu",
  "ra",
  "se",
  "ti",
  "vo",
  "zu",
  "da",
  "fe",
  "go",
  "hi",
  "ju",
  "po",
];

/** The ending of copy c ≥ 1's town names: letters (a number would read as a house number). */
export function copySuffix(c: number): string {
  let word = "";
  let n = c;
  do {
    word += SYLLABLES[n % SYLLABLES.length];
    n = Math.floor(n / SYLLABLES.length);
  } while (n > 0);
  return `${word}ville`;
}

/**
 * A town's name in a copy: its first word made another word ("Vaduz" → "Vaduzkeville", "Balzers
 * (FL)" → "Balzerskeville (FL)"), so each copy's towns are towns of their own, as in a country,
 * and not "Vaduz" a hundred times over with a word added.
 */
export function renamedTown(name: string, suffix: string): string {
  return suffix ? name.replace(/\p{L}+/u, (w) => w + suffix) : name;
}

const NAME_KEYS = /^(name|name:[a-z_-]+|official_name|alt_name|short_name|loc_name)$/;

/** A copy's tags: towns renamed (places, administrative boundaries, the addresses' towns). */
/** What a copy renames: its towns' ending, and its own postcode for each of the source's. */
interface Copy {
  suffix: string;
  postcodes: Map<string, string>;
}

const POSTCODE_KEYS = new Set(["addr:postcode", "postal_code"]);

/** The source's numeric postcodes (4 or 5 digits), sorted: what each copy gives a code of its own. */
function postcodesOf(src: Source): string[] {
  const codes = new Set<string>();
  for (const list of [src.nodes, src.ways, src.relations])
    for (const item of list)
      for (const k of POSTCODE_KEYS) {
        const v = item.tags?.[k];
        if (v && /^\d{4,5}$/.test(v)) codes.add(v);
      }
  return [...codes].sort();
}

/**
 * Copy c's codes: 10000 + c × (how many the source has) + the code's rank, five digits, distinct
 * across copies (as a real country's towns have their own); copy 0 keeps the source's.
 */
function copyOf(c: number, codes: string[]): Copy {
  if (c === 0) return { suffix: "", postcodes: new Map() };
  return {
    suffix: copySuffix(c),
    postcodes: new Map(codes.map((code, k) => [code, String(10000 + c * codes.length + k)])),
  };
}

/** A copy's tags: towns renamed (places, administrative boundaries, the addresses' towns), and postcodes. */
function renamed(tags: Tags, copy: Copy): Tags {
  if (!copy.suffix) return tags;
  const town = tags.place !== undefined || tags.boundary === "administrative";
  const postal = tags.boundary === "postal_code";
  const out: Tags = {};
  for (const [k, v] of Object.entries(tags)) {
    if ((town && NAME_KEYS.test(k)) || k === "addr:city" || k === "addr:place")
      out[k] = renamedTown(v, copy.suffix);
    else if (POSTCODE_KEYS.has(k) || (postal && (k === "ref" || k === "name")))
      out[k] = copy.postcodes.get(v) ?? v;
    else out[k] = v;
  }
  return out;
}

export interface SyntheticSummary {
  file: string;
  copies: number;
  nodes: number;
  ways: number;
  relations: number;
  seconds: number;
}

/** Writes `copies` copies of `source` into `out` (through a temporary name: never half a file). */
export async function writeSyntheticExtract(
  source: string,
  copies: number,
  out: string,
  onProgress?: (fraction: number) => void,
): Promise<SyntheticSummary> {
  const started = performance.now();
  const src = await readSource(source);
  const cols = Math.ceil(Math.sqrt(copies));
  // A tenth of the source's size between copies: their edges never touch.
  const width = (src.bbox.maxLng - src.bbox.minLng) * 1.1;
  const height = (src.bbox.maxLat - src.bbox.minLat) * 1.1;
  const shift = (c: number) => ({ dx: (c % cols) * width, dy: Math.floor(c / cols) * height });
  const rows = Math.ceil(copies / cols);
  const tmp = `${out}.partial`;
  const fd = openSync(tmp, "w");
  const box = {
    minLng: src.bbox.minLng,
    minLat: src.bbox.minLat,
    maxLng: src.bbox.minLng + cols * width,
    maxLat: src.bbox.minLat + rows * height,
  };
  writeSync(fd, headerBlock({ bbox: box, sorted: true }));
  const total = copies * (src.nodes.length + src.ways.length + src.relations.length);
  let done = 0;
  const write = (block: Buffer, n: number) => {
    writeSync(fd, block);
    done += n;
    onProgress?.(done / total);
  };
  const codes = postcodesOf(src);
  if (10000 + copies * codes.length >= 100000) throw new Error(`too many copies for five-digit postcodes`);
  /** Every copy of the items, a block at a time. */
  const inCopies = <T>(
    items: T[],
    copied: (item: T, c: number, copy: Copy) => T,
    block: (b: T[]) => Buffer,
  ) => {
    for (let c = 0; c < copies; c++) {
      const copy = copyOf(c, codes);
      for (let i = 0; i < items.length; i += BLOCK) {
        const part = items.slice(i, i + BLOCK).map((item) => copied(item, c, copy));
        write(block(part), part.length);
      }
    }
  };
  const offset = (c: number) => c * ID_OFFSET;
  // Sorted by type then id: every copy's nodes, then every copy's ways, then relations.
  inCopies(
    src.nodes,
    (n, c, copy) => ({
      id: n.id + offset(c),
      lon: n.lon + shift(c).dx,
      lat: n.lat + shift(c).dy,
      ...(n.tags && { tags: renamed(n.tags, copy) }),
    }),
    nodesBlock,
  );
  inCopies(
    src.ways,
    (w, c, copy) => ({
      id: w.id + offset(c),
      refs: w.refs.map((r) => r + offset(c)),
      ...(w.tags && { tags: renamed(w.tags, copy) }),
    }),
    waysBlock,
  );
  inCopies(
    src.relations,
    (r, c, copy) => ({
      id: r.id + offset(c),
      members: r.members.map((m) => ({ ...m, ref: m.ref + offset(c) })),
      ...(r.tags && { tags: renamed(r.tags, copy) }),
    }),
    relationsBlock,
  );
  closeSync(fd);
  renameSync(tmp, out);
  return {
    file: out,
    copies,
    nodes: copies * src.nodes.length,
    ways: copies * src.ways.length,
    relations: copies * src.relations.length,
    seconds: (performance.now() - started) / 1000,
  };
}
