import { createReadStream, statSync } from "node:fs";
import { OSMTransform } from "osm-pbf-parser-node";
import type { AddressRecord } from "../geodata/features";
import { type ImportWriter, importName, polygonArea, writeImport } from "./import-file";
import { type BBox, haversine } from "../geo/distance";
import { type Barriers, type TurnRestriction, buildGraph, turnRestrictionOf } from "../routing/graph";
import { MODES, barrierBlocks, wayProfile } from "../routing/profiles";
import { RoadRuns } from "../routing/road-runs";
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
  /** 0..1 over the whole import, each step by its share of the time (STEP_SHARE) */
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
  /** each step's time, and the process's peak memory (resident) by its end */
  steps: ImportStep[];
}

export interface ImportStep {
  step: string;
  seconds: number;
  peakBytes: number;
}

const STEP_NAMES = ["", "relations", "nodes and ways", "road graph", "text index"] as const;
/**
 * Where each step starts in the progress (0..1), by its share of the time measured on imports of
 * 1 to 100 copies of Liechtenstein (docs/performance.md): the road graph's contraction is most of
 * it, so the ETA printed from this progress holds across the steps.
 */
const STEP_SHARE = [0, 0.06, 0.25, 0.92] as const;

/** Records when each step ends (the next begins) and the peak memory by then. */
function stepRecorder(started: number) {
  const steps: ImportStep[] = [];
  let current = 0;
  let since = started;
  const end = () => {
    const now = performance.now();
    if (current) {
      steps.push({
        step: STEP_NAMES[current]!,
        seconds: (now - since) / 1000,
        peakBytes: process.resourceUsage().maxRSS * 1024,
      });
    }
    since = now;
  };
  return {
    steps,
    at(pass: number) {
      if (pass === current) return;
      end();
      current = pass;
    },
    finish: end,
  };
}

/** Nodes per chunk of NodeLocations (16 MB a chunk). */
const CHUNK_BITS = 20;
const CHUNK = 1 << CHUNK_BITS;
const MASK = CHUNK - 1;

/**
 * Every node's location, in typed arrays rather than a Map: 16 bytes a node instead of about 80.
 * In chunks of a million nodes, so a country's 90 million never need one array grown by copying
 * (which held the old and the new, twice as large, at once: 3 GB for 90 million nodes).
 */
class NodeLocations {
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
  readonly roads = new RoadRuns();
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
    const roads = this.roads;
    let length = 0;
    let last = -1;
    const end = () => {
      roads.endRun(item.id, roads.openNodes() >= 2 ? wayProfile(tags, length) : null);
      length = 0;
      last = -1;
    };
    for (const id of item.refs) {
      const k = this.nodes.indexOf(id);
      if (k < 0) {
        end();
        continue;
      }
      const [lng, lat] = this.nodes.at(k);
      if (last >= 0) length += haversine(roads.nodeLng[last]!, roads.nodeLat[last]!, lng, lat);
      last = roads.nodes;
      roads.node(id, lng, lat);
    }
    end();
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
  // The relations are written: the nodes' locations are not needed again (the roads keep theirs).
  pass.nodes.clear();
  const graph = buildGraph(pass.roads, pass.barriers, restrictions);
  pass.roads.clear();
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
  const recorder = stepRecorder(started);
  const onProgress = (p: ImportProgress) => {
    recorder.at(p.pass);
    options.onProgress?.(p);
  };
  let lastReport = 0;
  const report: Report = (pass, read, force = false) => {
    const now = performance.now();
    if (!force && now - lastReport < 100) return;
    lastReport = now;
    onProgress({
      pass,
      fraction: STEP_SHARE[pass - 1]! + (STEP_SHARE[pass]! - STEP_SHARE[pass - 1]!) * (read / size),
      ...counts,
    });
  };
  const { relations, neededWays, restrictions } = await readRelations(file, size, report);
  const onIndexProgress = (f: number) =>
    onProgress({ pass: 4, fraction: STEP_SHARE[3]! + (1 - STEP_SHARE[3]!) * f, ...counts });
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
      onProgress({ pass: 3, fraction: STEP_SHARE[2]!, ...counts });
      const graph = roadGraphOf(pass, restrictions, (f) =>
        onProgress({ pass: 3, fraction: STEP_SHARE[2]! + (STEP_SHARE[3]! - STEP_SHARE[2]!) * f, ...counts }),
      );
      writer.roadGraph(graph);
      const e = pass.extent;
      if (counts.nodes) writer.meta("bbox", JSON.stringify([e.minLng, e.minLat, e.maxLng, e.maxLat]));
      return { ...counts, skippedRelations: skipped };
    },
  );
  recorder.finish();
  return {
    name,
    file: written.file,
    ...written.counts,
    seconds: (performance.now() - started) / 1000,
    steps: recorder.steps,
  };
}
