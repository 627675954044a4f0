import { statSync } from "node:fs";
import type { Bundle, BundleLayer, BundleWriter } from "../bundles/file";
import { processOnce } from "../process-once";
import { type RoadGraph } from "./graph";
import { graphFromParts, graphParts } from "./graph-parts";

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
 * Graphs in shared memory: the routing workers share one copy of each import's graph
 * and hierarchies. The first thread to load a file's graph loads it into SharedArrayBuffers and
 * announces it; the others adopt it (views on the same memory) instead of loading their own.
 * Keyed by the file's path, inode and modification time: a new import of the same name is
 * another graph, and adopting it forgets the old one.
 */
const sharing = processOnce("shared-road-graphs", () => ({
  graphs: new Map<string, RoadGraph>(),
  announce: null as ((key: string, graph: RoadGraph) => void) | null,
}));

/** Which import a graph is of: path, inode and modification time of its file. */
export function graphKey(file: string): string {
  const s = statSync(file);
  return `${file}\0${s.ino}\0${s.mtimeMs}`;
}

/** Whether `key` names the file as it is now (not an earlier import of it, nor one since removed). */
export function isCurrent(key: string): boolean {
  try {
    return graphKey(key.split("\0")[0]!) === key;
  } catch {
    return false;
  }
}

/**
 * Keeps a graph another thread loaded, forgetting those of the file's earlier imports; one of an
 * import replaced since (a late message) is not kept.
 */
export function adoptRoadGraph(key: string, graph: RoadGraph): void {
  if (!isCurrent(key)) return;
  const file = key.split("\0")[0]!;
  for (const k of sharing.graphs.keys()) if (k !== key && k.split("\0")[0] === file) sharing.graphs.delete(k);
  if (!sharing.graphs.has(key)) sharing.graphs.set(key, graph);
}

/**
 * Shares this thread's graphs: `adopt`, the graphs other threads loaded so far; `announce`, how
 * a graph this thread loads is handed to the others.
 */
export function shareRoadGraphs(
  adopt: [string, RoadGraph][],
  announce: (key: string, graph: RoadGraph) => void,
) {
  for (const [key, graph] of adopt) adoptRoadGraph(key, graph);
  sharing.announce = announce;
}

/**
 * The road graph, read once per file (typed arrays copied out of the blobs; in shared memory
 * where graphs are shared, or adopted from the thread that loaded it), or null when the import has
 * none (made before it existed, or without roads).
 */
export function roadGraphOf(bundle: Bundle): RoadGraph | null {
  return bundle.once("roadGraph", () => {
    if (!bundle.has(ROAD_GRAPH)) return null;
    const announce = sharing.announce;
    const key = announce ? graphKey(bundle.file) : null;
    const adopted = key ? sharing.graphs.get(key) : undefined;
    if (adopted) return adopted;
    const parts = bundle.blobs("road_graph");
    if (!parts.size) return null;
    const graph = graphFromParts(parts, !!announce);
    if (key && announce) {
      adoptRoadGraph(key, graph);
      announce(key, graph);
    }
    return graph;
  });
}
