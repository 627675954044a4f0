import { type MetadataFilter, matchingRows } from "../../storage/metadata-filter";
import type { BBox } from "../../geo/distance";
import type { GeofenceBounds } from "../../storage/port";
import { inList, prepared } from "./connection";

/**
 * FROM and WHERE for geofences `g` of one world whose box meets a box; bind `inBoxParams`.
 * CROSS JOIN keeps the R*Tree as the outer loop: SQLite would otherwise scan every geofence of
 * the world and probe the tree by id.
 */
export const GEOFENCES_IN_BOX = `FROM "GeofenceRTree" r CROSS JOIN "Geofence" g ON g."seq" = r."seq"
  WHERE r."maxLng" >= ? AND r."minLng" <= ? AND r."maxLat" >= ? AND r."minLat" <= ? AND g."live" = ?`;

export const inBoxParams = (live: boolean, box: BBox) => [
  box.minLng,
  box.maxLng,
  box.minLat,
  box.maxLat,
  live ? 1 : 0,
];

/**
 * A geofence's version (see GeofenceVersion): its updatedAt in ms, computed by SQLite from the
 * text Prisma writes (julianday keeps whole milliseconds; ROUND takes off the float's error).
 */
export const VERSION = (g: string) =>
  `CAST(ROUND((julianday(${g}."updatedAt") - 2440587.5) * 86400000) AS INTEGER) AS "version"`;

/** Geofences of one world whose bounding box meets `box`, optionally only those with a tag in `tags`. */
export function geofenceBoundsInBox(
  live: boolean,
  box: BBox,
  {
    tags,
    enabledOnly = false,
    metadata,
  }: { tags?: readonly string[]; enabledOnly?: boolean; metadata?: MetadataFilter } = {},
): GeofenceBounds[] {
  const tagFilter = tags?.length ? ` AND g."tag" IN (${inList(tags.length)})` : "";
  const enabledFilter = enabledOnly ? ` AND g."enabled" = 1` : "";
  const sql = `SELECT g."seq", g."id", g."type", g."centerLng", g."centerLat", g."radius", ${VERSION("g")}
    ${metadata ? `, g."metadata"` : ""} ${GEOFENCES_IN_BOX}${tagFilter}${enabledFilter}`;
  const rows = prepared(sql).all(...inBoxParams(live, box), ...(tags ?? [])) as (GeofenceBounds & {
    metadata?: string | null;
  })[];
  if (!metadata) return rows;
  return matchingRows(rows, metadata);
}

/** A "Geofence" row as SQLite returns it. */
export interface GeofenceRow {
  seq: number;
  id: string;
  live: number;
  description: string;
  tag: string | null;
  externalId: string | null;
  type: string;
  geometry: string;
  centerLng: number;
  centerLat: number;
  radius: number;
  minLng: number;
  minLat: number;
  maxLng: number;
  maxLat: number;
  metadata: string | null;
  enabled: number;
  dwellThreshold: number | null;
  userIds: string | null;
  stopDetection: number;
  disableAfter: string | null;
  deleteAfter: string | null;
  createdAt: string;
  updatedAt: string;
}
