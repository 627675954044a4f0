import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import { GeodataWriter } from "../db/sqlite/geodata";
import { positionsOf } from "../geo/rings";
import { ringAreaAndCentroid } from "../geo/polygon";

/**
 * What every import shares (OSM extracts, GeoJSON regions): one geodata file per import name,
 * written beside its final name and renamed over it when complete, so a failed or interrupted
 * import leaves the previous one serving and a running service never reads half a file.
 */

/** The import's name from its file: "liechtenstein-2021.osm.pbf" → "liechtenstein-2021". */
export function importName(file: string): string {
  return path
    .basename(file)
    .replace(/\.osm\.pbf$|\.pbf$|\.geojson$|\.json$|\.zip$/i, "")
    .replace(/[^A-Za-z0-9._-]+/g, "-");
}

/**
 * Writes the import `name` into `dir`: `fill` writes the rows and returns counts of its own for
 * the file's meta; the text index is then built from those rows. On any error the partial file
 * is removed and the previous import stays.
 */
export async function writeImport<Extra extends Record<string, number>>(
  options: { dir: string; name: string; source: string; onIndexProgress?: (fraction: number) => void },
  fill: (writer: GeodataWriter) => Promise<Extra>,
): Promise<{ file: string; counts: GeodataWriter["counts"] & Extra }> {
  const { dir, name, source } = options;
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name))
    throw new Error(`import name "${name}" must be letters, digits, . _ -`);
  mkdirSync(dir, { recursive: true });
  const target = path.join(dir, `${name}.sqlite`);
  const partial = path.join(dir, `.${name}.sqlite.partial-${process.pid}`);
  if (existsSync(partial)) rmSync(partial);
  const writer = new GeodataWriter(partial);
  try {
    const extra = await fill(writer);
    writer.buildTextIndex(options.onIndexProgress);
    const counts = { ...writer.counts, ...extra };
    writer.meta("name", name);
    writer.meta("source", path.basename(source));
    writer.meta("importedAt", new Date().toISOString());
    writer.meta("counts", JSON.stringify(counts));
    writer.finish();
    // The swap: readers see the old file or the new one, never a mix.
    renameSync(partial, target);
    return { file: target, counts };
  } catch (error) {
    writer.abandon();
    rmSync(partial, { force: true });
    throw error;
  }
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
