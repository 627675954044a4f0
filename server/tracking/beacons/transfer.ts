import { stringify } from "csv-stringify/sync";
import type { AuthKey } from "../../auth/keys";
import { csvRecords } from "../../http/csv-file";
import { ApiError } from "../../errors";
import { validate } from "../../http/request";
import type { StoredBeacon } from "../../storage/beacons";
import { storage } from "../../storage";
import { safeCell, unsafeCell } from "../../text/csv-cells";
import { listBeacons } from "./api";
import { type BeaconWrite, beaconColumns, beaconWriteSchema, serializeBeacon } from "./schema";

/**
 * Beacons in and out as files (the dashboard's import and export): GeoJSON, each beacon a Point
 * feature whose properties are the API's fields; CSV, whose columns are the API's fields
 * (`coordinates` as JSON). An export imports again as it was.
 */

export const BEACON_TRANSFER = { maxBeacons: 10_000, maxBytes: 8 * 1024 * 1024 } as const;

export const BEACON_CSV_COLUMNS = [
  "description",
  "uuid",
  "major",
  "minor",
  "coordinates",
  "tag",
  "externalId",
  "metadata",
  "enabled",
  "_id",
  "createdAt",
  "updatedAt",
] as const;

type Row = { where: string; id?: string; fields: Record<string, unknown> };

/** What a file carries that is not written: the export's own stamps, and the world. */
const NOT_WRITTEN = new Set(["_id", "createdAt", "updatedAt", "live", "type", "geometry"]);
const refuse = (param: string, message: string) =>
  new ApiError("invalid_input", `${param}: ${message}`, param);
const idOf = (v: unknown) => (typeof v === "string" && v.trim() !== "" ? v.trim() : undefined);
const written = (p: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(p).filter(([k]) => !NOT_WRITTEN.has(k)));

function featureRows(text: string): Row[] {
  let doc: { type?: string; features?: unknown } | null;
  try {
    doc = JSON.parse(text) as typeof doc;
  } catch {
    throw refuse("file", "is not JSON (a GeoJSON FeatureCollection was expected)");
  }
  if (doc?.type !== "FeatureCollection" || !Array.isArray(doc.features)) {
    throw refuse("file", "must be a GeoJSON FeatureCollection");
  }
  return (doc.features as unknown[]).map((f, i) => {
    const where = `features[${i}]`;
    const { geometry, properties } = (f ?? {}) as {
      geometry?: { type?: string; coordinates?: unknown };
      properties?: Record<string, unknown> | null;
    };
    if (geometry?.type !== "Point") throw refuse(`${where}.geometry`, "must be a Point");
    const p = properties && typeof properties === "object" ? properties : {};
    return { where, id: idOf(p._id), fields: { ...written(p), coordinates: geometry.coordinates } };
  });
}

function csvRows(text: string): Row[] {
  return csvRecords(text).map((r, i) => ({
    // The header is line 1; an empty cell is an absent field.
    where: `line ${i + 2}`,
    id: idOf(r._id),
    fields: Object.fromEntries(
      Object.entries(written(r)).flatMap(([k, v]) => (v === "" ? [] : [[k, unsafeCell(v as string)]])),
    ),
  }));
}

/** Every row of a file checked as the API checks a beacon: the first bad one is a 400 naming it, and nothing is written. */
export function readBeaconFile(
  text: string,
  format: "geojson" | "csv",
): { id?: string; write: BeaconWrite }[] {
  const rows = format === "csv" ? csvRows(text) : featureRows(text);
  if (!rows.length) throw refuse("file", "holds no beacons");
  if (rows.length > BEACON_TRANSFER.maxBeacons) {
    throw refuse("file", `holds ${rows.length} beacons; at most ${BEACON_TRANSFER.maxBeacons} per import`);
  }
  return rows.map((r) => {
    try {
      return { id: r.id, write: validate(beaconWriteSchema, r.fields) };
    } catch (e) {
      if (e instanceof ApiError && e.param)
        throw refuse(`${r.where}.${e.param}`, e.message.replace(/^[^:]*: /, ""));
      throw e;
    }
  });
}

/**
 * Writes checked rows: one with a tag and externalId replaces the beacon that has them (or makes
 * it); one with the _id of a beacon of this world replaces that beacon; any other makes a new one.
 */
export async function importBeacons(key: AuthKey, rows: { id?: string; write: BeaconWrite }[]) {
  let created = 0;
  let replaced = 0;
  for (const { id, write } of rows) {
    const columns = beaconColumns(write);
    if (columns.tag !== null && columns.externalId !== null) {
      const put = await storage().beacons.put(key.live, {
        ...columns,
        tag: columns.tag,
        externalId: columns.externalId,
      });
      if (put.created) created++;
      else replaced++;
      continue;
    }
    const changed = id ? await storage().beacons.update(key.live, { id }, columns) : null;
    if (changed === "taken") throw refuse("externalId", `the tag and externalId of beacon ${id} are taken`);
    if (changed) replaced++;
    else if (await storage().beacons.create(key.live, columns)) created++;
  }
  return { created, replaced };
}

/**
 * Every beacon of the world (of one tag), newest first, a page at a time: the API's pages, so
 * beacons made at one instant (by two app processes) are never split across two of them.
 */
export async function* allBeacons(key: AuthKey, tag?: string): AsyncGenerator<StoredBeacon[]> {
  let createdBefore: Date | undefined;
  for (;;) {
    const { beacons, hasMore } = await listBeacons(key, {
      tag,
      createdBefore,
      createdAfter: undefined,
      limit: EXPORT_PAGE,
    });
    if (beacons.length) yield beacons;
    if (!hasMore) return;
    createdBefore = beacons[beacons.length - 1]!.createdAt;
  }
}

const EXPORT_PAGE = 500;

/** A beacon as a GeoJSON feature: its fields as properties, the point as geometry. */
export function beaconFeature(b: StoredBeacon) {
  const { geometry, ...properties } = serializeBeacon(b);
  return { type: "Feature", geometry, properties };
}

export function beaconCsv(beacons: StoredBeacon[], header: boolean): string {
  const rows = beacons.map((b) => {
    const w = serializeBeacon(b) as Record<string, unknown>;
    return BEACON_CSV_COLUMNS.map((c) => {
      const v = c === "coordinates" ? [b.longitude, b.latitude] : w[c];
      return safeCell(v === undefined || v === null ? "" : typeof v === "object" ? JSON.stringify(v) : v);
    });
  });
  return stringify(rows, { header, columns: header ? [...BEACON_CSV_COLUMNS] : undefined });
}
