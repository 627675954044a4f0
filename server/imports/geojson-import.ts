import { readFile, stat } from "node:fs/promises";
import { encodePolygons, packedBBox } from "../geo/rings";
import { importName, polygonArea, writeImport } from "./import-file";

/**
 * Regions from a GeoJSON file (docs/data.md#regions-from-geojson): areas no OSM extract has,
 * such as Nielsen DMAs, sales territories drawn as official areas, or better postal-code shapes.
 * Every Polygon or MultiPolygon feature becomes a region of the one type given; its name and code
 * come from properties. The file is checked whole before anything is written: a feature without
 * a name or with broken coordinates fails the import with its index, and the previous import of
 * the same name keeps serving.
 */

export const GEOJSON_REGION_TYPES = ["country", "state", "county", "city", "postalCode", "dma"] as const;
export type GeojsonRegionType = (typeof GEOJSON_REGION_TYPES)[number];

export interface GeojsonImportOptions {
  dir: string;
  type: GeojsonRegionType;
  name?: string;
  /** the property holding each region's name (default: the first of name, NAME, Name) */
  nameField?: string;
  /** the property holding each region's code (default: code, CODE, Code, then the feature's id) */
  codeField?: string;
}

export interface GeojsonImportSummary {
  name: string;
  file: string;
  regions: number;
  /** features that are not areas (points, lines, no geometry) */
  skippedFeatures: number;
  seconds: number;
}

/** A problem with the input, reported as is to the operator. */
export class GeojsonImportError extends Error {}

interface Feature {
  type?: unknown;
  id?: unknown;
  properties?: Record<string, unknown> | null;
  geometry?: { type?: unknown; coordinates?: unknown } | null;
}

function featuresOf(json: unknown): Feature[] {
  const doc = json as { type?: unknown; features?: unknown };
  if (doc?.type === "FeatureCollection" && Array.isArray(doc.features)) return doc.features as Feature[];
  if (doc?.type === "Feature") return [doc as Feature];
  throw new GeojsonImportError("the file is not a GeoJSON FeatureCollection or Feature");
}

function text(value: unknown): string | undefined {
  if (typeof value === "string" && value.trim()) return value.trim();
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return undefined;
}

function firstProperty(f: Feature, fields: string[]): string | undefined {
  for (const field of fields) {
    const v = text(f.properties?.[field]);
    if (v !== undefined) return v;
  }
  return undefined;
}

/** A GeoJSON ring as packed numbers, closed; throws on anything that is not one. */
function packRing(ring: unknown, where: string): Float64Array {
  if (!Array.isArray(ring) || ring.length < 3)
    throw new GeojsonImportError(`${where}: a ring needs 4 positions`);
  const out: number[] = [];
  for (const p of ring as unknown[]) {
    const [lng, lat] = Array.isArray(p) ? (p as unknown[]) : [];
    if (typeof lng !== "number" || typeof lat !== "number" || Math.abs(lng) > 180 || Math.abs(lat) > 90) {
      throw new GeojsonImportError(`${where}: ${JSON.stringify(p)} is not a [longitude, latitude] position`);
    }
    out.push(lng, lat);
  }
  if (out[0] !== out.at(-2) || out[1] !== out.at(-1)) out.push(out[0]!, out[1]!);
  if (out.length < 8) throw new GeojsonImportError(`${where}: a ring needs 4 positions`);
  return Float64Array.from(out);
}

/** The feature's polygons, packed; null for a feature that is not an area. */
function polygonsOfFeature(f: Feature, where: string): Float64Array[][] | null {
  const g = f.geometry;
  const polygons =
    g?.type === "Polygon"
      ? [g.coordinates]
      : g?.type === "MultiPolygon"
        ? (g.coordinates as unknown[])
        : null;
  if (!polygons) return null;
  if (!Array.isArray(polygons) || polygons.some((p) => !Array.isArray(p) || p.length === 0)) {
    throw new GeojsonImportError(`${where}: the ${String(g!.type)} has no rings`);
  }
  return polygons.map((rings, i) =>
    (rings as unknown[]).map((ring, j) => packRing(ring, `${where}, polygon ${i + 1}, ring ${j + 1}`)),
  );
}

export async function importGeojsonRegions(
  file: string,
  options: GeojsonImportOptions,
): Promise<GeojsonImportSummary> {
  const started = performance.now();
  if (!(GEOJSON_REGION_TYPES as readonly string[]).includes(options.type)) {
    throw new GeojsonImportError(`type must be one of ${GEOJSON_REGION_TYPES.join(", ")}`);
  }
  const { size } = await stat(file);
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, "utf8"));
  } catch (error) {
    throw new GeojsonImportError(`the file is not JSON (${(error as Error).message}; ${size} bytes)`);
  }
  const features = featuresOf(json);
  const nameFields = options.nameField ? [options.nameField] : ["name", "NAME", "Name"];
  const codeFields = options.codeField ? [options.codeField] : ["code", "CODE", "Code"];

  // Everything is checked before the file is written.
  const regions: { name: string; code?: string; polygons: Float64Array[][] }[] = [];
  let skippedFeatures = 0;
  for (const [i, f] of features.entries()) {
    const where = `feature ${i + 1}`;
    const polygons = polygonsOfFeature(f, where);
    if (!polygons) {
      skippedFeatures++;
      continue;
    }
    const name = firstProperty(f, nameFields);
    if (!name) {
      throw new GeojsonImportError(
        `${where}: no ${nameFields.map((n) => `"${n}"`).join(" or ")} property to name the region` +
          (options.nameField ? "" : " (choose the property with --name-field)"),
      );
    }
    const code = firstProperty(f, codeFields) ?? (options.codeField ? undefined : text(f.id));
    regions.push({ name, code, polygons });
  }
  if (regions.length === 0) throw new GeojsonImportError("the file has no Polygon or MultiPolygon features");

  const name = options.name ?? importName(file);
  const written = await writeImport({ dir: options.dir, name, source: file }, async (writer) => {
    for (const [i, r] of regions.entries()) {
      writer.region({
        type: options.type,
        name: r.name,
        ...(r.code && { code: r.code }),
        osm: `geojson/${i + 1}`,
        area: polygonArea(r.polygons),
        shape: encodePolygons(r.polygons),
        bbox: packedBBox(r.polygons),
      });
    }
    // Where the dashboard's import list takes the map ("Show").
    const all = packedBBox(regions.flatMap((r) => r.polygons));
    writer.meta("bbox", JSON.stringify([all.minLng, all.minLat, all.maxLng, all.maxLat]));
    return { skippedFeatures };
  });
  return {
    name,
    file: written.file,
    regions: written.counts.regions,
    skippedFeatures,
    seconds: (performance.now() - started) / 1000,
  };
}
