import { HIERARCHY_PARTS, type Hierarchy } from "./hierarchy";
import { MODES, type Mode, type RoadLabel } from "./profiles";
import { type RoadGraph, NO_LABEL } from "./graph";

/** The road graph stored in an import bundle and read back: its typed arrays as parts. */

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
