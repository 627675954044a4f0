import path from "node:path";
import { writeBundle } from "../bundles/swap";
import { buildTextIndex } from "../geocode/text-index-build";
import { TEXT_INDEX, TEXT_NAMES } from "../geocode/text-index";
import { ADDRESS_COUNTRIES, FEATURES, FeatureWriter } from "../geodata/feature-layer";
import { ROAD_GRAPH, writeRoadGraph } from "../routing/graph-bundle";
import type { RoadGraph } from "../routing/graph";
import { TIMETABLE, writeTimetable } from "../transit/timetable-bundle";
import type { Timetable } from "../transit/timetable";
import { positionsOf } from "../geo/rings";
import { ringAreaAndCentroid } from "../geo/polygon";

/**
 * What every import shares (OSM extracts, GeoJSON regions, GTFS feeds): one bundle per import
 * name with every layer (server/bundles/), the features and whatever else the import has, then
 * the text index built from the features.
 */

/** The import's name from its file: "liechtenstein-2021.osm.pbf" → "liechtenstein-2021". */
export function importName(file: string): string {
  return path
    .basename(file)
    .replace(/\.osm\.pbf$|\.pbf$|\.geojson$|\.json$|\.zip$/i, "")
    .replace(/[^A-Za-z0-9._-]+/g, "-");
}

/** What an import writes: features, the road graph, a timetable and meta, into one bundle. */
export interface ImportWriter extends Pick<FeatureWriter, "place" | "region" | "address" | "street"> {
  roadGraph(graph: RoadGraph): void;
  transit(timetable: Timetable): void;
  meta(key: string, value: string): void;
}

/** Every layer a bundle may have, created in each new one (a layer left empty costs nothing). */
const LAYERS = [FEATURES, ADDRESS_COUNTRIES, TEXT_INDEX, TEXT_NAMES, ROAD_GRAPH, TIMETABLE];

/**
 * Writes the import `name` into `dir`: `fill` writes the rows and returns counts of its own for
 * the file's meta; the text index is then built from those rows. On any error the partial file
 * is removed and the previous import stays (server/bundles/swap.ts).
 */
export async function writeImport<Extra extends Record<string, number>>(
  options: { dir: string; name: string; source: string; onIndexProgress?: (fraction: number) => void },
  fill: (writer: ImportWriter) => Promise<Extra>,
): Promise<{ file: string; counts: FeatureWriter["counts"] & Extra }> {
  const { dir, name, source } = options;
  const { file, result } = await writeBundle({ dir, name, layers: LAYERS }, async (bundle) => {
    const features = new FeatureWriter(bundle);
    const extra = await fill({
      place: (r) => features.place(r),
      region: (r) => features.region(r),
      address: (r) => features.address(r),
      street: (r) => features.street(r),
      roadGraph: (graph) => writeRoadGraph(bundle, graph),
      transit: (timetable) => writeTimetable(bundle, timetable),
      meta: (key, value) => bundle.meta(key, value),
    });
    buildTextIndex(bundle, features.counts, options.onIndexProgress);
    const counts = { ...features.counts, ...extra };
    bundle.meta("name", name);
    bundle.meta("source", path.basename(source));
    bundle.meta("importedAt", new Date().toISOString());
    bundle.meta("counts", JSON.stringify(counts));
    return counts;
  });
  return { file, counts: result };
}

/** Area in m² of packed polygons (outer ring first, then holes). */
export function polygonArea(polygons: Float64Array[][]): number {
  let total = 0;
  for (const [outer, ...holes] of polygons) {
    const area = (r: Float64Array) => ringAreaAndCentroid(positionsOf(r)).area;
    total += area(outer!) - holes.reduce((s, h) => s + area(h), 0);
  }
  return total;
}
