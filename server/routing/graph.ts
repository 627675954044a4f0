import { type Hierarchy } from "./hierarchy";
import { type Mode, type RoadLabel } from "./profiles";

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
export type { RoutableWay } from "./road-runs";

/** The label of the way an arc runs along. */
export const labelOf = (g: RoadGraph, arc: number): RoadLabel =>
  g.labels[g.edgeLabel[g.edgeOf[arc]!]!] ?? NO_LABEL;

/** Each arc's tail vertex (the rows give it; this spells it out once per graph). */
export function tailsOf(g: RoadGraph): Uint32Array {
  const tail = new Uint32Array(g.head.length);
  for (let v = 0; v + 1 < g.firstArc.length; v++) tail.fill(v, g.firstArc[v]!, g.firstArc[v + 1]!);
  return tail;
}
