import { parse as parseCsv } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";
import type { AuthKey } from "../auth/keys";
import { ApiError } from "../http/errors";
import { validate } from "../http/request";
import { type StoredGeofence as Geofence, storage } from "../storage";
import { reconcileMembers } from "../tracking/memberships";
import { type GeofenceWrite, geofenceColumns, geofenceWriteSchema, ringOf } from "./schema";

/**
 * Geofences in and out as files (the dashboard's bulk import and export): GeoJSON, where a
 * circle is a Point with `radius` and a polygon a Polygon of one ring; CSV, whose columns are
 * the API's own fields (`coordinates` as JSON). Every row is held to the rules of
 * POST /v1/geofences; one bad row refuses the file, before anything is written.
 */

export const TRANSFER = { maxGeofences: 10_000, maxBytes: 32 * 1024 * 1024, chunk: 250 } as const;

/** The CSV's columns, in order: what the API takes, then what it adds. */
export const CSV_COLUMNS = [
  "description",
  "type",
  "coordinates",
  "radius",
  "tag",
  "externalId",
  "metadata",
  "enabled",
  "dwellThreshold",
  "_id",
  "createdAt",
  "updatedAt",
] as const;

export type FileFormat = "geojson" | "csv";

/** A row of an import file as the API would take it, with where it came from (for messages). */
interface Row {
  where: string;
  body: Record<string, unknown>;
}

const refuse = (param: string, message: string) =>
  new ApiError("invalid_input", `${param}: ${message}`, param);

function featureRows(text: string): Row[] {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw refuse("file", "is not JSON (a GeoJSON FeatureCollection was expected)");
  }
  const d = doc as { type?: string; features?: unknown; geometry?: unknown };
  const features =
    d?.type === "FeatureCollection" && Array.isArray(d.features)
      ? (d.features as unknown[])
      : d?.type === "Feature"
        ? [doc]
        : null;
  if (!features) throw refuse("file", "must be a GeoJSON FeatureCollection (or one Feature)");
  return features.map((f, i) => {
    const where = `features[${i}]`;
    const { geometry, properties } = (f ?? {}) as {
      geometry?: { type?: string; coordinates?: unknown };
      properties?: Record<string, unknown> | null;
    };
    const p = properties ?? {};
    if (geometry?.type === "Point") {
      return { where, body: { ...p, type: "circle", coordinates: geometry.coordinates } };
    }
    if (geometry?.type === "Polygon") {
      const rings = geometry.coordinates as unknown[] | undefined;
      if (Array.isArray(rings) && rings.length > 1) {
        throw refuse(`${where}.geometry`, "polygons with holes are not supported (one ring only)");
      }
      return { where, body: { ...p, type: "polygon", coordinates: Array.isArray(rings) ? rings[0] : rings } };
    }
    throw refuse(`${where}.geometry`, "must be a Point (a circle, with properties.radius) or a Polygon");
  });
}

function csvRows(text: string): Row[] {
  let records: Record<string, string>[];
  try {
    records = parseCsv(text, { columns: true, bom: true, skip_empty_lines: true, trim: true }) as Record<
      string,
      string
    >[];
  } catch (e) {
    throw refuse("file", `is not readable CSV: ${(e as Error).message}`);
  }
  return records.map((r, i) => {
    const body: Record<string, unknown> = {};
    // Empty cells are absent fields; the export's _id, createdAt and updatedAt are not written.
    for (const [k, v] of Object.entries(r)) {
      if (v !== "" && !["_id", "createdAt", "updatedAt", "live"].includes(k)) body[k] = v;
    }
    // The header is line 1.
    return { where: `line ${i + 2}`, body };
  });
}

/**
 * The geofences an import file describes, each validated as POST /v1/geofences would; the
 * first problem refuses the file, naming the feature or line and the field.
 */
export function readGeofenceFile(text: string, format: FileFormat): GeofenceWrite[] {
  const rows = format === "csv" ? csvRows(text) : featureRows(text);
  if (rows.length === 0) throw refuse("file", "holds no geofences");
  if (rows.length > TRANSFER.maxGeofences) {
    throw refuse("file", `holds ${rows.length} geofences; at most ${TRANSFER.maxGeofences} per import`);
  }
  const seen = new Map<string, string>();
  return rows.map(({ where, body }) => {
    let write: GeofenceWrite;
    try {
      write = validate(geofenceWriteSchema, body);
    } catch (e) {
      if (e instanceof ApiError) {
        const field = e.param === "body" ? "" : e.param;
        throw new ApiError("invalid_input", `${where}: ${e.message}`, field ? `${where}.${field}` : where);
      }
      throw e;
    }
    if ((write.tag === undefined) !== (write.externalId === undefined)) {
      throw refuse(`${where}.externalId`, "tag and externalId go together (both or neither)");
    }
    if (write.tag !== undefined) {
      const identity = `${write.tag}/${write.externalId}`;
      const first = seen.get(identity);
      if (first)
        throw refuse(`${where}.externalId`, `tag and externalId ${identity} are also those of ${first}`);
      seen.set(identity, where);
    }
    return write;
  });
}

export interface ImportProgress {
  done: number;
  total: number;
}

/**
 * Writes validated geofences: those with a tag and externalId replace the geofence that has
 * them (or are created), the others are created. Written in chunks, each one change of the
 * store, so tracking goes on between them; `onProgress` hears after each chunk.
 */
export async function importGeofences(
  key: AuthKey,
  writes: GeofenceWrite[],
  onProgress: (p: ImportProgress) => void = () => {},
): Promise<{ created: number; replaced: number }> {
  let created = 0;
  let replaced = 0;
  for (let start = 0; start < writes.length; start += TRANSFER.chunk) {
    const chunk = writes.slice(start, start + TRANSFER.chunk);
    const written = await storage().geofences.putMany(key.live, chunk.map(geofenceColumns));
    created += written.created;
    replaced += written.replaced.length;
    // Users a replaced shape no longer contains are taken out of it.
    for (const seq of written.replaced) await reconcileMembers(seq);
    onProgress({ done: Math.min(start + TRANSFER.chunk, writes.length), total: writes.length });
  }
  return { created, replaced };
}

/** Every geofence of the key's world (of one tag, if given), oldest first, a page at a time. */
export async function* allGeofences(key: AuthKey, tag?: string): AsyncGenerator<Geofence[]> {
  let after = 0;
  for (;;) {
    const page = await storage().geofences.pageAfter(key.live, after, 1000, tag);
    if (page.length === 0) return;
    yield page;
    after = page.at(-1)!.seq;
  }
}

/** One geofence as a GeoJSON Feature (circle: its centre, with `radius`). */
export function geofenceFeature(g: Geofence) {
  return {
    type: "Feature" as const,
    geometry:
      g.type === "circle"
        ? { type: "Point" as const, coordinates: [g.centerLng, g.centerLat] }
        : { type: "Polygon" as const, coordinates: [ringOf(g)] },
    properties: {
      _id: g.id,
      description: g.description,
      ...(g.tag !== null && { tag: g.tag }),
      ...(g.externalId !== null && { externalId: g.externalId }),
      ...(g.type === "circle" && { radius: g.radius }),
      ...(g.metadata !== null && { metadata: g.metadata }),
      enabled: g.enabled,
      ...(g.dwellThreshold !== null && { dwellThreshold: g.dwellThreshold }),
      createdAt: g.createdAt.toISOString(),
      updatedAt: g.updatedAt.toISOString(),
    },
  };
}

/** Geofences as CSV lines (with the header first when `header`). */
export function geofenceCsv(rows: Geofence[], header: boolean): string {
  return stringify(
    rows.map((g) => [
      g.description,
      g.type,
      JSON.stringify(g.type === "circle" ? [g.centerLng, g.centerLat] : ringOf(g)),
      g.type === "circle" ? g.radius : "",
      g.tag ?? "",
      g.externalId ?? "",
      g.metadata === null ? "" : JSON.stringify(g.metadata),
      g.enabled,
      g.dwellThreshold ?? "",
      g.id,
      g.createdAt.toISOString(),
      g.updatedAt.toISOString(),
    ]),
    { header, columns: [...CSV_COLUMNS] },
  );
}
