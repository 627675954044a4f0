import { createReadStream, statSync } from "node:fs";
import { OSMTransform } from "osm-pbf-parser-node";
import type { AddressRecord } from "../geodata/features";
import { type ImportWriter, importName, polygonArea, writeImport } from "./import-file";
import { type BBox, haversine } from "../geo/distance";
import {
  type Barriers,
  type RoutableWay,
  type TurnRestriction,
  buildGraph,
  turnRestrictionOf,
} from "../routing/graph";
import { MODES, barrierBlocks, wayProfile } from "../routing/profiles";
import { contract } from "../routing/contract";
import { closeAtExtent, encodePolygons, joinRings, packedBBox, polygonsOf, positionsOf } from "../geo/rings";
import { ringAreaAndCentroid } from "../geo/polygon";
import { type Tags, placeOf } from "../geodata/taxonomy";

/**
 * The OpenStreetMap import (docs/data.md#osm-import): reads an .osm.pbf extract twice, streaming
 * (osm-pbf-parser-node), and writes one bundle (server/bundles/, through ./import-file.ts).
 *
 * Pass 1 reads only relations: which ways the boundaries and area places need.
 * Pass 2 keeps every node's location (16 bytes each), turns tagged nodes and ways into places,
 * addresses and streets as they come, keeps the member ways' lines, and at the end joins the
 * relations' members into areas. A relation whose rings do not close (cut by the extract's
 * edge) is left out rather than guessed.
 *
 * The file is written beside its final name and renamed over it when complete (import-file.ts):
 * a failed or interrupted import leaves the previous one serving.
 */

interface OsmNode {
  type: "node";
  id: number;
  lat: number;
  lon: number;
  tags?: Tags;
}
interface OsmWay {
  type: "way";
  id: number;
  refs: number[];
  tags?: Tags;
}
interface OsmRelation {
  type: "relation";
  id: number;
  members: { type: "node" | "way" | "relation"; ref: number; role: string }[];
  tags?: Tags;
}
type OsmItem = OsmNode | OsmWay | OsmRelation | { type?: undefined };

export interface ImportProgress {
  /** 1: relations, 2: nodes and ways, 3: the road graph (contracting it per mode), 4: the text index */
  pass: 1 | 2 | 3 | 4;
  /** 0..1 over the whole import (the passes over the file take 80%, the road graph and the index 10% each) */
  fraction: number;
  nodes: number;
  ways: number;
  relations: number;
}

export interface ImportSummary {
  name: string;
  file: string;
  places: number;
  regions: number;
  addresses: number;
  streets: number;
  nodes: number;
  ways: number;
  relations: number;
  skippedRelations: number;
  seconds: number;
}

/** Every node's location, in arrays rather than a Map: 16 bytes a node instead of about 80. */
class NodeLocations {
  private ids = new Float64Array(1 << 16);
  private coords = new Int32Array(1 << 17);
  private n = 0;
  private sorted = true;

  add(id: number, lon: number, lat: number) {
    if (this.n === this.ids.length) {
      const ids = new Float64Array(this.n * 2);
      ids.set(this.ids);
      this.ids = ids;
      const coords = new Int32Array(this.n * 4);
      coords.set(this.coords);
      this.coords = coords;
    }
    if (this.n && id < this.ids[this.n - 1]!) this.sorted = false;
    this.ids[this.n] = id;
    this.coords[2 * this.n] = Math.round(lon * 1e7);
    this.coords[2 * this.n + 1] = Math.round(lat * 1e7);
    this.n++;
  }

  get size() {
    return this.n;
  }

  /** PBF files from osmium and osmosis are sorted by id; others are sorted once here. */
  seal() {
    if (this.sorted) return;
    const order = Array.from({ length: this.n }, (_, i) => i).sort((a, b) => this.ids[a]! - this.ids[b]!);
    const ids = new Float64Array(this.n);
    const coords = new Int32Array(this.n * 2);
    order.forEach((from, to) => {
      ids[to] = this.ids[from]!;
      coords[2 * to] = this.coords[2 * from]!;
      coords[2 * to + 1] = this.coords[2 * from + 1]!;
    });
    this.ids = ids;
    this.coords = coords;
    this.sorted = true;
  }

  /** A node's location, when the extract holds it. */
  position(id: number): [number, number] | undefined {
    const i = this.find(id);
    return i < 0 ? undefined : [this.coords[2 * i]! / 1e7, this.coords[2 * i + 1]! / 1e7];
  }

  private find(id: number): number {
    let lo = 0;
    let hi = this.n - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = this.ids[mid]!;
      if (v === id) return mid;
      if (v < id) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /**
   * The runs of a way's nodes that are in the extract (a way cut by the extract's edge keeps its
   * inside part), each with at least two nodes: their ids and positions.
   */
  runs(refs: number[]): { nodes: number[]; lngs: number[]; lats: number[] }[] {
    const out: { nodes: number[]; lngs: number[]; lats: number[] }[] = [];
    let run: { nodes: number[]; lngs: number[]; lats: number[] } = { nodes: [], lngs: [], lats: [] };
    const close = () => {
      if (run.nodes.length >= 2) out.push(run);
      run = { nodes: [], lngs: [], lats: [] };
    };
    for (const id of refs) {
      const k = this.find(id);
      if (k < 0) {
        close();
        continue;
      }
      run.nodes.push(id);
      run.lngs.push(this.coords[2 * k]! / 1e7);
      run.lats.push(this.coords[2 * k + 1]! / 1e7);
    }
    close();
    return out;
  }

  /** The way's line packed as [lng, lat, …]; null when a node is missing from the extract. */
  line(refs: number[]): Float64Array | null {
    const out = new Float64Array(refs.length * 2);
    for (let i = 0; i < refs.length; i++) {
      const k = this.find(refs[i]!);
      if (k < 0) return null;
      out[2 * i] = this.coords[2 * k]! / 1e7;
      out[2 * i + 1] = this.coords[2 * k + 1]! / 1e7;
    }
    return out;
  }
}

/** Stable 24-hex place ids: the OSM type (1 node, 2 way, 3 relation) and id. */
export function placeId(type: "node" | "way" | "relation", id: number): string {
  const t = type === "node" ? "1" : type === "way" ? "2" : "3";
  return t + id.toString(16).padStart(23, "0");
}

const STREET_KINDS = new Set([
  "motorway",
  "trunk",
  "primary",
  "secondary",
  "tertiary",
  "unclassified",
  "residential",
  "living_street",
  "pedestrian",
  "service",
  "road",
  "motorway_link",
  "trunk_link",
  "primary_link",
  "secondary_link",
  "tertiary_link",
]);

/** Admin levels kept as region types; other levels vary too much between countries. */
const ADMIN_TYPES: Record<string, string> = { "2": "country", "4": "state", "6": "county", "8": "city" };

/** The region a boundary's tags describe, or null. */
export function regionOf(tags: Tags): { type: string; name: string; code?: string } | null {
  if (tags.boundary === "postal_code") {
    const code = tags.postal_code ?? tags["addr:postcode"] ?? tags.ref;
    return code ? { type: "postalCode", name: code, code } : null;
  }
  if (tags.boundary !== "administrative") return null;
  const type = ADMIN_TYPES[tags.admin_level ?? ""];
  const name = (type === "country" ? tags["name:en"] : undefined) ?? tags.name;
  if (!type || !name) return null;
  let code: string | undefined;
  if (type === "country")
    code = tags["ISO3166-1:alpha2"] ?? tags["ISO3166-1"] ?? tags.country_code?.toUpperCase();
  else if (type === "state") code = tags["ISO3166-2"]?.split("-")[1] ?? tags.ref;
  return { type, name, ...(code && { code }) };
}

const isArea = (line: Float64Array) =>
  line.length >= 8 && line[0] === line[line.length - 2] && line[1] === line[line.length - 1];

/** The middle vertex of an open line. */
function midpoint(line: Float64Array): [number, number] {
  const i = 2 * Math.floor(line.length / 4);
  return [line[i]!, line[i + 1]!];
}

function lineBBox(c: Float64Array): BBox {
  return packedBBox([[c]]);
}

function addressOf(tags: Tags, lng: number, lat: number): AddressRecord | null {
  const number = tags["addr:housenumber"];
  if (!number) return null;
  const street = tags["addr:street"] ?? tags["addr:place"];
  return {
    number,
    ...(street && { street }),
    ...(tags["addr:unit"] && { unit: tags["addr:unit"] }),
    ...(tags["addr:postcode"] && { postcode: tags["addr:postcode"] }),
    ...(tags["addr:city"] && { city: tags["addr:city"] }),
    ...(/^[A-Za-z]{2}$/.test(tags["addr:country"] ?? "") && { country: tags["addr:country"]!.toUpperCase() }),
    lng,
    lat,
  };
}

async function readPass(
  file: string,
  withTags: { node: boolean; way: boolean; relation: boolean },
  onBytes: (read: number) => void,
  visit: (item: OsmItem) => void,
) {
  const stream = createReadStream(file, { highWaterMark: 1 << 20 });
  let read = 0;
  stream.on("data", (chunk) => {
    read += chunk.length;
    onBytes(read);
  });
  const parser = stream.pipe(new OSMTransform({ withTags, withInfo: false }));
  stream.on("error", (e) => parser.destroy(e));
  for await (const batch of parser as AsyncIterable<OsmItem[]>) for (const item of batch) visit(item);
}

type Report = (pass: 1 | 2, read: number, force?: boolean) => void;

/** Pass 1: the relations that make areas, the ways they need, and the turn restrictions. */
async function readRelations(file: string, size: number, report: Report) {
  const relations: OsmRelation[] = [];
  const neededWays = new Set<number>();
  const restrictions: TurnRestriction[] = [];
  await readPass(
    file,
    { node: false, way: false, relation: true },
    (read) => report(1, read),
    (item) => {
      if (item.type !== "relation" || !item.tags) return;
      const t = item.tags;
      const kind = t.type;
      if (kind === "restriction") {
        const restriction = turnRestrictionOf(t, item.members);
        if (restriction) restrictions.push(restriction);
        return;
      }
      if (kind !== "multipolygon" && kind !== "boundary") return;
      if (!regionOf(t) && !placeOf(t)) return;
      relations.push(item);
      for (const m of item.members) if (m.type === "way") neededWays.add(m.ref);
    },
  );
  report(1, size, true);
  return { relations, neededWays, restrictions };
}

/**
 * Pass 2 as it goes: nodes' locations, the places, addresses, streets and regions of nodes and
 * ways written at once, the lines of the ways relations need kept for later, and the road graph's
 * makings (routable ways, their parts inside the extract, and barriers).
 */
class FeaturePass {
  readonly nodes = new NodeLocations();
  readonly memberLines = new Map<number, Float64Array>();
  readonly roads: RoutableWay[] = [];
  readonly barriers: Barriers = new Map();
  readonly extent = { minLng: Infinity, minLat: Infinity, maxLng: -Infinity, maxLat: -Infinity };
  private sealed = false;

  constructor(
    private writer: ImportWriter,
    private neededWays: Set<number>,
    private counts: { nodes: number; ways: number },
  ) {}

  visit(item: OsmItem) {
    if (item.type === "node") this.node(item);
    else if (item.type === "way") this.way(item);
  }

  private node(item: OsmNode) {
    this.counts.nodes++;
    this.nodes.add(item.id, item.lon, item.lat);
    const e = this.extent;
    if (item.lon < e.minLng) e.minLng = item.lon;
    if (item.lon > e.maxLng) e.maxLng = item.lon;
    if (item.lat < e.minLat) e.minLat = item.lat;
    if (item.lat > e.maxLat) e.maxLat = item.lat;
    const tags = item.tags;
    if (!tags) return;
    if (tags.barrier) {
      const stopped = MODES.filter((m) => barrierBlocks(tags, m));
      if (stopped.length) this.barriers.set(item.id, new Set(stopped));
    }
    const place = placeOf(tags);
    const point = { minLng: item.lon, maxLng: item.lon, minLat: item.lat, maxLat: item.lat };
    if (place)
      this.writer.place({
        ...place,
        oid: placeId("node", item.id),
        lng: item.lon,
        lat: item.lat,
        bbox: point,
      });
    const address = addressOf(tags, item.lon, item.lat);
    if (address) this.writer.address(address);
  }

  private way(item: OsmWay) {
    this.counts.ways++;
    if (!this.sealed) {
      this.nodes.seal();
      this.sealed = true;
    }
    const tags = item.tags;
    const needed = this.neededWays.has(item.id);
    if (tags && (tags.highway || tags.route === "ferry")) this.road(item, tags);
    if (!needed && !tags) return;
    const line = this.nodes.line(item.refs);
    if (!line || line.length < 4) return;
    if (needed) this.memberLines.set(item.id, line);
    if (tags) this.wayFeatures(item.id, tags, line);
  }

  /** A routable way's runs of nodes inside the extract, each with its profile. */
  private road(item: OsmWay, tags: Tags) {
    for (const run of this.nodes.runs(item.refs)) {
      let length = 0;
      for (let i = 1; i < run.nodes.length; i++) {
        length += haversine(run.lngs[i - 1]!, run.lats[i - 1]!, run.lngs[i]!, run.lats[i]!);
      }
      const profile = wayProfile(tags, length);
      if (profile) this.roads.push({ ...run, id: item.id, profile });
    }
  }

  /** What a tagged way is: a place, an address, a street, a region (several at once). */
  private wayFeatures(id: number, tags: Tags, line: Float64Array) {
    const area = isArea(line);
    const bbox = lineBBox(line);
    const [lng, lat] = area ? ringAreaAndCentroid(positionsOf(line)).centroid : midpoint(line);
    const place = placeOf(tags);
    if (place)
      this.writer.place({ ...place, oid: placeId("way", id), lng, lat, ...(area && { ring: line }), bbox });
    const address = addressOf(tags, lng, lat);
    if (address) this.writer.address(address);
    if (tags.highway && tags.name && STREET_KINDS.has(tags.highway)) {
      this.writer.street({ name: tags.name, kind: tags.highway, line, bbox });
    }
    const region = area ? regionOf(tags) : null;
    if (region) {
      const polygons = [[line]];
      this.writer.region({
        ...region,
        osm: `way/${id}`,
        area: polygonArea(polygons),
        shape: encodePolygons(polygons),
        bbox,
      });
    }
  }
}

/**
 * The areas of relations, from their member ways' lines; how many could not be closed. A
 * boundary the extract cut (members outside it, or ways cut short) is closed along the extract's
 * edge when its admin centre or label is in the extract (geo/rings.ts closeAtExtent): inside the
 * extract it is exact, which is where it is asked about.
 */
function writeRelations(writer: ImportWriter, relations: OsmRelation[], pass: FeaturePass) {
  let skipped = 0;
  for (const rel of relations) {
    const lines: Float64Array[] = [];
    let complete = true;
    for (const m of rel.members) {
      if (m.type !== "way") continue;
      if (m.role !== "outer" && m.role !== "inner" && m.role !== "") continue;
      const line = pass.memberLines.get(m.ref);
      if (!line) {
        complete = false;
        continue;
      }
      lines.push(line);
    }
    const centre = rel.members.find(
      (m) => m.type === "node" && (m.role === "admin_centre" || m.role === "label"),
    );
    const at = centre && rel.tags!.boundary ? pass.nodes.position(centre.ref) : undefined;
    const rings =
      (complete ? joinRings(lines) : null) ??
      (at && pass.extent.minLng <= pass.extent.maxLng ? closeAtExtent(lines, pass.extent, at) : null);
    if (!rings?.length) {
      skipped++;
      continue;
    }
    const polygons = polygonsOf(rings);
    const bbox = packedBBox(polygons);
    const areas = polygons.map((p) => polygonArea([p]));
    const region = regionOf(rel.tags!);
    if (region) {
      writer.region({
        ...region,
        osm: `relation/${rel.id}`,
        area: areas.reduce((a, b) => a + b, 0),
        shape: encodePolygons(polygons),
        bbox,
      });
    }
    const place = placeOf(rel.tags!);
    if (place) {
      const outer = polygons[areas.indexOf(Math.max(...areas))]![0]!;
      const [lng, lat] = ringAreaAndCentroid(positionsOf(outer)).centroid;
      writer.place({ ...place, oid: placeId("relation", rel.id), lng, lat, ring: outer, bbox });
    }
  }
  return skipped;
}

/** The road graph of the pass's roads, with each mode's contraction hierarchy (server/routing/contract.ts). */
function roadGraphOf(
  pass: FeaturePass,
  restrictions: TurnRestriction[],
  onProgress: (fraction: number) => void,
) {
  const graph = buildGraph(pass.roads, pass.barriers, restrictions);
  pass.roads.length = 0;
  // The searches without `avoid` run on these.
  graph.hierarchies = {};
  MODES.forEach((mode, i) => {
    graph.hierarchies![mode] = contract(graph, mode, (f) => onProgress((i + f) / MODES.length));
  });
  return graph;
}

export async function importOsm(
  file: string,
  options: { dir: string; name?: string; onProgress?: (p: ImportProgress) => void },
): Promise<ImportSummary> {
  const started = performance.now();
  const size = statSync(file).size;
  const name = options.name ?? importName(file);

  const counts = { nodes: 0, ways: 0, relations: 0 };
  let lastReport = 0;
  const report: Report = (pass, read, force = false) => {
    const now = performance.now();
    if (!force && now - lastReport < 100) return;
    lastReport = now;
    options.onProgress?.({ pass, fraction: (0.8 * (pass - 1 + read / size)) / 2, ...counts });
  };
  const { relations, neededWays, restrictions } = await readRelations(file, size, report);
  const onIndexProgress = (f: number) =>
    options.onProgress?.({ pass: 4, fraction: 0.9 + 0.1 * f, ...counts });
  const written = await writeImport(
    { dir: options.dir, name, source: file, onIndexProgress },
    async (writer) => {
      const pass = new FeaturePass(writer, neededWays, counts);
      await readPass(
        file,
        { node: true, way: true, relation: false },
        (read) => report(2, read),
        (item) => pass.visit(item),
      );
      counts.relations = relations.length;
      report(2, size, true);
      const skipped = writeRelations(writer, relations, pass);
      const graph = roadGraphOf(pass, restrictions, (f) =>
        options.onProgress?.({ pass: 3, fraction: 0.8 + 0.1 * f, ...counts }),
      );
      writer.roadGraph(graph);
      const e = pass.extent;
      if (counts.nodes) writer.meta("bbox", JSON.stringify([e.minLng, e.minLat, e.maxLng, e.maxLat]));
      return { ...counts, skippedRelations: skipped };
    },
  );
  return { name, file: written.file, ...written.counts, seconds: (performance.now() - started) / 1000 };
}
