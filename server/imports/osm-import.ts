import { createReadStream, statSync } from "node:fs";
import { OSMTransform } from "osm-pbf-parser-node";
import { type ImportWriter, importName, polygonArea, writeImport } from "./import-file";
import { haversine } from "../geo/distance";
import { type Barriers, buildGraph } from "../routing/graph-build";
import { type TurnRestriction, turnRestrictionOf } from "../routing/graph";
import { MODES, barrierBlocks, wayProfile } from "../routing/profiles";
import { RoadRuns } from "../routing/road-runs";
import { contract } from "../routing/contract";
import { closeAtExtent, encodePolygons, joinRings, packedBBox, polygonsOf, positionsOf } from "../geo/rings";
import { ringAreaAndCentroid } from "../geo/polygon";
import { type Tags, placeOf } from "../geodata/taxonomy";
import { type ImportProgress, type ImportSummary, STEP_SHARE, stepRecorder } from "./import-progress";
import { NodeLocations } from "./node-locations";
import { placeId, STREET_KINDS, regionOf, isArea, midpoint, lineBBox, addressOf } from "./osm-features";

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
