import { stringify } from "csv-stringify/sync";
import type { AuthKey } from "../auth/keys";
import { csvRecords } from "../http/csv-file";
import { ApiError } from "../errors";
import type { IsochroneMaking, StoredGeofence as Geofence } from "../storage/geofence-records";
import { storage } from "../storage";
import { safeCell, unsafeCell } from "../text/csv-cells";
import { ringOf } from "./schema";

/**
 * Geofences in and out as files (the dashboard's bulk import and export): GeoJSON, where a
 * circle is a Point with `radius` and a polygon a Polygon of one ring; CSV, whose columns are
 * the API's own fields (`coordinates` as JSON). What an import does with the rows is
 * server/geofences/import.ts.
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
  "userIds",
  "stopDetection",
  "disableAfter",
  "deleteAfter",
  "mode",
  "_id",
  "createdAt",
  "updatedAt",
] as const;

export type FileFormat = "geojson" | "csv";

/**
 * A row of an import file: the fields it has (a CSV's columns, a feature's properties and
 * geometry), the `_id` it names, and where it is (for messages). A field it has with an empty
 * value (an empty cell, null) clears that field; a field it does not have keeps the stored value.
 */
export interface ImportRow {
  where: string;
  id?: string;
  fields: Record<string, unknown>;
}

const refuse = (param: string, message: string) =>
  new ApiError("invalid_input", `${param}: ${message}`, param);

/** What a file carries that is not written: the export's own stamps, and the world. */
const NOT_WRITTEN = new Set(["_id", "createdAt", "updatedAt", "live"]);

const idOf = (v: unknown) => (typeof v === "string" && v.trim() !== "" ? v.trim() : undefined);

function featureRows(text: string): ImportRow[] {
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
    const p = properties && typeof properties === "object" ? properties : {};
    const fields = Object.fromEntries(Object.entries(p).filter(([k]) => !NOT_WRITTEN.has(k)));
    const id = idOf(p._id);
    if (geometry?.type === "Point") {
      return { where, id, fields: { ...fields, type: "circle", coordinates: geometry.coordinates } };
    }
    if (geometry?.type === "Polygon" && p.type === "isochrone") {
      // Drawn again from its center, minutes (radius) and mode, on the roads imported here.
      const { center, ...rest } = fields;
      return { where, id, fields: { ...rest, type: "isochrone", coordinates: center } };
    }
    if (geometry?.type === "Polygon") {
      const rings = geometry.coordinates as unknown[] | undefined;
      if (Array.isArray(rings) && rings.length > 1) {
        throw refuse(`${where}.geometry`, "polygons with holes are not supported (one ring only)");
      }
      return {
        where,
        id,
        fields: { ...fields, type: "polygon", coordinates: Array.isArray(rings) ? rings[0] : rings },
      };
    }
    throw refuse(`${where}.geometry`, "must be a Point (a circle, with properties.radius) or a Polygon");
  });
}

function csvRows(text: string): ImportRow[] {
  return csvRecords(text).map((r, i) => {
    // A column the file has is a field of every row, an empty cell clearing it; a column it
    // leaves out keeps the stored values.
    const fields = Object.fromEntries(
      Object.entries(r)
        .filter(([k]) => !NOT_WRITTEN.has(k))
        .map(([k, v]) => [k, unsafeCell(v)]),
    );
    // The header is line 1.
    return { where: `line ${i + 2}`, id: idOf(r._id), fields };
  });
}

/** The rows of an import file, within the import's limits. */
export function readGeofenceFile(text: string, format: FileFormat): ImportRow[] {
  const rows = format === "csv" ? csvRows(text) : featureRows(text);
  if (rows.length === 0) throw refuse("file", "holds no geofences");
  if (rows.length > TRANSFER.maxGeofences) {
    throw refuse("file", `holds ${rows.length} geofences; at most ${TRANSFER.maxGeofences} per import`);
  }
  return rows;
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

/**
 * One geofence as a GeoJSON Feature (circle: its centre, with `radius`; isochrone: its polygon,
 * with `type`, `center`, `radius` in minutes and `mode`, from which an import draws it again).
 */
export function geofenceFeature(g: Geofence) {
  const making = g.isochrone as IsochroneMaking | null;
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
      ...(making && {
        type: "isochrone",
        center: [g.centerLng, g.centerLat],
        radius: making.minutes,
        mode: making.mode,
      }),
      ...(g.metadata !== null && { metadata: g.metadata }),
      enabled: g.enabled,
      ...(g.dwellThreshold !== null && { dwellThreshold: g.dwellThreshold }),
      ...(g.userIds !== null && { userIds: g.userIds }),
      ...(g.stopDetection && { stopDetection: true }),
      ...(g.disableAfter && { disableAfter: g.disableAfter.toISOString() }),
      ...(g.deleteAfter && { deleteAfter: g.deleteAfter.toISOString() }),
      createdAt: g.createdAt.toISOString(),
      updatedAt: g.updatedAt.toISOString(),
    },
  };
}

/** Geofences as CSV lines (with the header first when `header`). */
export function geofenceCsv(rows: Geofence[], header: boolean): string {
  return stringify(
    rows.map((g) => [
      safeCell(g.description),
      g.type,
      JSON.stringify(g.type === "polygon" ? ringOf(g) : [g.centerLng, g.centerLat]),
      g.type === "circle" ? g.radius : ((g.isochrone as IsochroneMaking | null)?.minutes ?? ""),
      safeCell(g.tag ?? ""),
      safeCell(g.externalId ?? ""),
      g.metadata === null ? "" : JSON.stringify(g.metadata),
      // In words: csv-stringify writes false as an empty cell, which an import reads as "clear".
      String(g.enabled),
      g.dwellThreshold ?? "",
      // user IDs in one cell, comma-separated (as an import reads it)
      safeCell(((g.userIds as string[] | null) ?? []).join(",")),
      String(g.stopDetection),
      g.disableAfter?.toISOString() ?? "",
      g.deleteAfter?.toISOString() ?? "",
      (g.isochrone as IsochroneMaking | null)?.mode ?? "",
      g.id,
      g.createdAt.toISOString(),
      g.updatedAt.toISOString(),
    ]),
    { header, columns: [...CSV_COLUMNS] },
  );
}
