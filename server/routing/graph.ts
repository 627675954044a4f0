import { haversine } from "../geo/distance";
import { HIERARCHY_PARTS, type Hierarchy } from "./hierarchy";
import { MODES, type Mode, type RoadLabel, type WayProfile } from "./profiles";

/**
 * The road graph (docs/routing.md#the-graph): typed arrays, built once at import and loaded once
 * per process. Vertices are the junctions of routable ways (a node two ways share, or a way's
 * end, or a barrier); an edge is the stretch of one way between two vertices, with its shape;
 * each edge is two arcs (one per direction) in compressed sparse rows, with a travel time per
 * mode (Infinity where the mode may not go that way) and the `avoid` flags.
 */

export const FLAG_FERRY = 1;
export const FLAG_TOLL = 2;
export const FLAG_HIGHWAY = 4;

export interface RoadGraph {
  /** vertex positions */
  lng: Float64Array;
  lat: Float64Array;
  /** arcs leaving vertex v: firstArc[v] .. firstArc[v + 1] - 1 */
  firstArc: Uint32Array;
  head: Uint32Array;
  /** the edge an arc runs along; `reversed` when against the edge's drawing */
  edgeOf: Uint32Array;
  reversed: Uint8Array;
  /** per arc: seconds by mode (Infinity: not allowed), and the avoid flags */
  seconds: Record<Mode, Float32Array>;
  flags: Uint8Array;
  /** per edge: meters, and its shape (points edgeFirstPoint[e] .. edgeFirstPoint[e + 1] - 1) */
  edgeLength: Float64Array;
  edgeFirstPoint: Uint32Array;
  pointLng: Float64Array;
  pointLat: Float64Array;
  /**
   * Turns cars may not take (OSM turn restrictions): pairs [arc in, arc out] at a vertex, sorted
   * by arc in; `restrictedVia` flags their vertices (searches track how such a vertex was entered).
   */
  turnBans: Uint32Array;
  restrictedVia: Uint8Array;
  /** per mode, its contraction hierarchy (./contract.ts, queried by ./ch-query.ts), when the import built one */
  hierarchies?: Partial<Record<Mode, Hierarchy>>;
  /**
   * per edge, its way's label (name, ref, class, roundabout, maxspeed) in `labels`; imports made
   * before labels were stored have every edge on an empty label
   */
  edgeLabel: Uint32Array;
  labels: RoadLabel[];
}

/** The label of an edge whose way's is unknown (imports older than labels). */
export const NO_LABEL: RoadLabel = { name: "", ref: "", class: "", roundabout: false, maxspeed: "" };

/** An OSM turn restriction with a via node: from a way, through the node, onto a way. */
export interface TurnRestriction {
  from: number;
  via: number;
  to: number;
  /** only_*: every other turn from `from` at `via` is banned; no_*: this one is */
  only: boolean;
}

/**
 * A turn restriction for cars from a relation's tags and members (type=restriction, one from
 * way, one via node, one to way), or null: via ways, restrictions for other vehicles, those
 * with an `except` for cars, and conditional ones are left out.
 */
export function turnRestrictionOf(
  tags: Record<string, string>,
  members: { type: string; ref: number; role: string }[],
): TurnRestriction | null {
  const value = tags["restriction:motorcar"] ?? tags["restriction:motor_vehicle"] ?? tags.restriction;
  if (!value || !/^(no|only)_/.test(value)) return null;
  if (/(^|;)\s*(motorcar|motor_vehicle)\s*($|;)/.test(tags.except ?? "")) return null;
  const from = members.filter((m) => m.role === "from" && m.type === "way");
  const via = members.filter((m) => m.role === "via");
  const to = members.filter((m) => m.role === "to" && m.type === "way");
  if (from.length !== 1 || to.length !== 1 || via.length !== 1 || via[0]!.type !== "node") return null;
  return { from: from[0]!.ref, via: via[0]!.ref, to: to[0]!.ref, only: value.startsWith("only_") };
}

/** A way as the graph builder takes it: its nodes (ids and positions) and its profile. */
export interface RoutableWay {
  /** the OSM way's id (turn restrictions name ways) */
  id?: number;
  nodes: number[];
  lngs: ArrayLike<number>;
  lats: ArrayLike<number>;
  profile: WayProfile;
}

/** A node a mode may not pass (a barrier): its id and the modes it stops. */
export type Barriers = Map<number, Set<Mode>>;

const NO_MODES: ReadonlySet<Mode> = new Set();
const seconds = (meters: number, kmh: number) => (kmh > 0 ? meters / (kmh / 3.6) : Infinity);

/** A stretch of a way between two vertices, as the graph builder cuts it. */
interface Edge {
  from: number;
  to: number;
  length: number;
  shape: number[]; // lng, lat pairs, ends included
  profile: WayProfile;
  /** modes a barrier at the edge's start (end) stops: they cannot leave it along the edge */
  blockedFrom: ReadonlySet<Mode>;
  blockedTo: ReadonlySet<Mode>;
  way?: number;
}

/**
 * Builds the graph from routable ways. A barrier node splits its way there and is a vertex the
 * modes it stops may reach but not leave: they cannot pass it.
 */
export function buildGraph(
  ways: RoutableWay[],
  barriers: Barriers = new Map(),
  restrictions: TurnRestriction[] = [],
): RoadGraph {
  const { edges, vertexOf, vLng, vLat } = edgesOf(ways, barriers);
  const arcs = arcsOf(edges, vLng.length);
  const { turnBans, restrictedVia } = turnBansOf(restrictions, vertexOf, edges, arcs);
  return {
    turnBans,
    restrictedVia,
    lng: Float64Array.from(vLng),
    lat: Float64Array.from(vLat),
    firstArc: arcs.firstArc,
    head: arcs.head,
    edgeOf: arcs.edgeOf,
    reversed: arcs.reversed,
    seconds: arcs.secs,
    flags: arcs.flags,
    ...shapesOf(edges),
    ...labelsOf(edges),
  };
}

/** The distinct labels of the edges' ways, and each edge's. */
function labelsOf(edges: Edge[]) {
  const index = new Map<string, number>();
  const labels: RoadLabel[] = [];
  const edgeLabel = new Uint32Array(edges.length);
  edges.forEach((e, i) => {
    const label = e.profile.road ?? NO_LABEL;
    const key = JSON.stringify(label);
    let k = index.get(key);
    if (k === undefined) {
      k = labels.push(label) - 1;
      index.set(key, k);
    }
    edgeLabel[i] = k;
  });
  return { edgeLabel, labels };
}

/** The label of the way an arc runs along. */
export const labelOf = (g: RoadGraph, arc: number): RoadLabel =>
  g.labels[g.edgeLabel[g.edgeOf[arc]!]!] ?? NO_LABEL;

/** The ways cut at their vertices (ends of ways, nodes used more than once, barriers) into edges. */
function edgesOf(ways: RoutableWay[], barriers: Barriers) {
  const uses = new Map<number, number>();
  for (const w of ways) {
    for (const id of w.nodes) uses.set(id, (uses.get(id) ?? 0) + 1);
  }
  const vertexOf = new Map<number, number>();
  const vLng: number[] = [];
  const vLat: number[] = [];
  const vertex = (id: number, lng: number, lat: number) => {
    let v = vertexOf.get(id);
    if (v === undefined) {
      v = vLng.push(lng) - 1;
      vLat.push(lat);
      vertexOf.set(id, v);
    }
    return v;
  };
  const edges: Edge[] = [];
  for (const w of ways) {
    let start = 0;
    for (let i = 1; i < w.nodes.length; i++) {
      const id = w.nodes[i]!;
      const last = i === w.nodes.length - 1;
      if (!last && (uses.get(id) ?? 0) < 2 && !barriers.has(id)) continue;
      const shape: number[] = [];
      let length = 0;
      for (let k = start; k <= i; k++) {
        shape.push(w.lngs[k]!, w.lats[k]!);
        if (k > start) length += haversine(w.lngs[k - 1]!, w.lats[k - 1]!, w.lngs[k]!, w.lats[k]!);
      }
      edges.push({
        from: vertex(w.nodes[start]!, w.lngs[start]!, w.lats[start]!),
        to: vertex(id, w.lngs[i]!, w.lats[i]!),
        length,
        shape,
        profile: w.profile,
        blockedFrom: barriers.get(w.nodes[start]!) ?? NO_MODES,
        blockedTo: barriers.get(id) ?? NO_MODES,
        ...(w.id !== undefined && { way: w.id }),
      });
      start = i;
    }
  }
  return { edges, vertexOf, vLng, vLat };
}

/** Arcs: two per edge, sorted into rows by their tail vertex, with each mode's seconds. */
function arcsOf(edges: Edge[], V: number) {
  const count = new Uint32Array(V + 1);
  for (const e of edges) {
    count[e.from]!++;
    count[e.to]!++;
  }
  const firstArc = new Uint32Array(V + 1);
  for (let v = 0; v < V; v++) firstArc[v + 1] = firstArc[v]! + count[v]!;
  const A = firstArc[V]!;
  const next = firstArc.slice(0, V);
  const head = new Uint32Array(A);
  const edgeOf = new Uint32Array(A);
  const reversed = new Uint8Array(A);
  const flags = new Uint8Array(A);
  const secs = Object.fromEntries(MODES.map((m) => [m, new Float32Array(A)])) as Record<Mode, Float32Array>;
  const edgeArcs = new Uint32Array(2 * edges.length);
  edges.forEach((e, i) => {
    const flag =
      (e.profile.ferry ? FLAG_FERRY : 0) |
      (e.profile.toll ? FLAG_TOLL : 0) |
      (e.profile.highway ? FLAG_HIGHWAY : 0);
    for (const back of [false, true]) {
      const tail = back ? e.to : e.from;
      const a = next[tail]!++;
      edgeArcs[2 * i + (back ? 1 : 0)] = a;
      head[a] = back ? e.from : e.to;
      edgeOf[a] = i;
      reversed[a] = back ? 1 : 0;
      flags[a] = flag;
      for (const m of MODES) {
        const d = e.profile[m];
        const stopped = (back ? e.blockedTo : e.blockedFrom).has(m);
        secs[m][a] = stopped ? Infinity : seconds(e.length, back ? d.backward : d.forward);
      }
    }
  });
  return { firstArc, head, edgeOf, reversed, flags, secs, edgeArcs };
}

/** The edges' lengths and shapes, packed: each edge's points from edgeFirstPoint on. */
function shapesOf(edges: Edge[]) {
  const edgeLength = new Float64Array(edges.length);
  const edgeFirstPoint = new Uint32Array(edges.length + 1);
  let points = 0;
  edges.forEach((e, i) => {
    edgeFirstPoint[i] = points;
    points += e.shape.length / 2;
  });
  edgeFirstPoint[edges.length] = points;
  const pointLng = new Float64Array(points);
  const pointLat = new Float64Array(points);
  edges.forEach((e, i) => {
    edgeLength[i] = e.length;
    for (let k = 0; k < e.shape.length / 2; k++) {
      pointLng[edgeFirstPoint[i]! + k] = e.shape[2 * k]!;
      pointLat[edgeFirstPoint[i]! + k] = e.shape[2 * k + 1]!;
    }
  });
  return { edgeLength, edgeFirstPoint, pointLng, pointLat };
}

/**
 * Turn restrictions as banned (arc in, arc out) pairs, sorted: the arcs of the from-way into the
 * via vertex, and of the to-way out of it (an "only" restriction bans every other way out).
 */
function turnBansOf(
  restrictions: TurnRestriction[],
  vertexOf: Map<number, number>,
  edges: Edge[],
  arcs: ReturnType<typeof arcsOf>,
) {
  const { firstArc, edgeOf, reversed, edgeArcs } = arcs;
  const bans: [number, number][] = [];
  const restrictedVia = new Uint8Array(firstArc.length - 1);
  for (const r of restrictions) {
    const v = vertexOf.get(r.via);
    if (v === undefined) continue;
    const into: number[] = [];
    const outOf: number[] = [];
    const others: number[] = [];
    for (let a = firstArc[v]!; a < firstArc[v + 1]!; a++) {
      const e = edges[edgeOf[a]!]!;
      if (e.way === r.to) outOf.push(a);
      else others.push(a);
      // The arc coming back along the same edge ends at v: an arc into v.
      if (e.way === r.from) into.push(edgeArcs[2 * edgeOf[a]! + (reversed[a] ? 0 : 1)]!);
    }
    if (!into.length || !outOf.length) continue;
    for (const i of into) {
      for (const o of r.only ? others : outOf) bans.push([i, o]);
    }
    restrictedVia[v] = 1;
  }
  bans.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  return { turnBans: Uint32Array.from(bans.flat()), restrictedVia };
}

/** The length in meters of an arc (its edge's). */
export const arcLength = (g: RoadGraph, arc: number) => g.edgeLength[g.edgeOf[arc]!]!;

type Typed = Float64Array | Float32Array | Uint32Array | Int32Array | Uint8Array;
const SCALARS = [
  "turnBans",
  "restrictedVia",
  "lng",
  "lat",
  "firstArc",
  "head",
  "edgeOf",
  "reversed",
  "flags",
  "edgeLength",
  "edgeFirstPoint",
  "pointLng",
  "pointLat",
  "edgeLabel",
] as const;

/** The graph's arrays by name, for storing (the import bundle's road_graph table). */
export function graphParts(g: RoadGraph): [string, Typed][] {
  return [
    ...SCALARS.map((k) => [k, g[k]] as [string, Typed]),
    ...MODES.map((m) => [`seconds.${m}`, g.seconds[m]] as [string, Typed]),
    ["labels", new TextEncoder().encode(JSON.stringify(g.labels))],
    ...MODES.flatMap((m) => {
      const h = g.hierarchies?.[m];
      const names = Object.keys(HIERARCHY_PARTS) as (keyof Hierarchy)[];
      return h ? names.map((k) => [`ch.${m}.${k}`, h[k]] as [string, Typed]) : [];
    }),
  ];
}

/** The graph from its stored arrays (copied: a blob's bytes need not be aligned for its type). */
/**
 * The graph from its parts, each copied out; with `shared`, into SharedArrayBuffers, which other
 * threads are handed without a copy (the routing workers share one graph: ./graph-bundle.ts).
 */
export function graphFromParts(parts: Map<string, Uint8Array>, shared = false): RoadGraph {
  const read = <T extends Typed>(name: string, Type: { new (b: ArrayBufferLike): T }): T => {
    const bytes = parts.get(name);
    if (!bytes) throw new Error(`road graph: part ${name} is missing`);
    const memory = shared ? new SharedArrayBuffer(bytes.byteLength) : new ArrayBuffer(bytes.byteLength);
    new Uint8Array(memory).set(bytes);
    return new Type(memory);
  };
  const hierarchyOf = (m: Mode): Hierarchy =>
    Object.fromEntries(
      Object.entries(HIERARCHY_PARTS).map(([k, Type]) => [
        k,
        read(`ch.${m}.${k}`, Type as { new (b: ArrayBufferLike): Typed }),
      ]),
    ) as unknown as Hierarchy;
  return {
    turnBans: read("turnBans", Uint32Array),
    restrictedVia: read("restrictedVia", Uint8Array),
    lng: read("lng", Float64Array),
    lat: read("lat", Float64Array),
    firstArc: read("firstArc", Uint32Array),
    head: read("head", Uint32Array),
    edgeOf: read("edgeOf", Uint32Array),
    reversed: read("reversed", Uint8Array),
    flags: read("flags", Uint8Array),
    edgeLength: read("edgeLength", Float64Array),
    edgeFirstPoint: read("edgeFirstPoint", Uint32Array),
    pointLng: read("pointLng", Float64Array),
    pointLat: read("pointLat", Float64Array),
    // Labels came with bundle format 6; older imports route without them.
    edgeLabel: parts.has("edgeLabel")
      ? read("edgeLabel", Uint32Array)
      : new Uint32Array(read("edgeLength", Float64Array).length),
    labels: parts.has("labels")
      ? (JSON.parse(new TextDecoder().decode(parts.get("labels"))) as RoadLabel[])
      : [NO_LABEL],
    seconds: Object.fromEntries(MODES.map((m) => [m, read(`seconds.${m}`, Float32Array)])) as Record<
      Mode,
      Float32Array
    >,
    hierarchies: Object.fromEntries(
      MODES.filter((m) => parts.has(`ch.${m}.rank`)).map((m) => [m, hierarchyOf(m)]),
    ),
  };
}

/** Each arc's tail vertex (the rows give it; this spells it out once per graph). */
export function tailsOf(g: RoadGraph): Uint32Array {
  const tail = new Uint32Array(g.head.length);
  for (let v = 0; v + 1 < g.firstArc.length; v++) tail.fill(v, g.firstArc[v]!, g.firstArc[v + 1]!);
  return tail;
}
