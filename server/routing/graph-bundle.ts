import type { Bundle, BundleLayer, BundleWriter } from "../bundles/file";
import { type RoadGraph, graphFromParts, graphParts } from "./graph";

/**
 * The road graph layer of a bundle: each typed array of the graph (./graph.ts, with its
 * contraction hierarchies) as one blob, by name. Written by the OSM import, read once per file
 * by the routing engine.
 */
export const ROAD_GRAPH: BundleLayer = {
  name: "road graph",
  since: 4,
  schema: `CREATE TABLE road_graph (part TEXT PRIMARY KEY, data BLOB NOT NULL);`,
};

/** Stores the road graph, and its size in the bundle's meta. */
export function writeRoadGraph(w: BundleWriter, graph: RoadGraph) {
  w.blobs("road_graph", graphParts(graph));
  w.meta("roadGraph", JSON.stringify({ vertices: graph.lng.length, edges: graph.edgeLength.length }));
}

/**
 * The road graph, read once per file (typed arrays copied out of the blobs), or null when the
 * import has none (made before it existed, or without roads).
 */
export function roadGraphOf(bundle: Bundle): RoadGraph | null {
  return bundle.once("roadGraph", () => {
    if (!bundle.has(ROAD_GRAPH)) return null;
    const parts = bundle.blobs("road_graph");
    return parts.size ? graphFromParts(parts) : null;
  });
}
