import type { BBox, Position } from "../../geo/distance";
import type { GeofenceRecord } from "../../geofences/schema";
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

/** Geofences of one world whose bounding box meets `box`, optionally only those with a tag in `tags`. */
export function geofenceBoundsInBox(live: boolean, box: BBox, tags?: readonly string[]): GeofenceBounds[] {
  const tagFilter = tags?.length ? ` AND g."tag" IN (${inList(tags.length)})` : "";
  const sql = `SELECT g."seq", g."id", g."type", g."centerLng", g."centerLat", g."radius" ${GEOFENCES_IN_BOX}${tagFilter}`;
  return prepared(sql).all(...inBoxParams(live, box), ...(tags ?? [])) as GeofenceBounds[];
}

/** The rings of the given geofences, by seq. */
export function geofenceRings(seqs: readonly number[]): Map<number, Position[]> {
  const out = new Map<number, Position[]>();
  if (!seqs.length) return out;
  const rows = prepared(
    `SELECT "seq", "geometry" FROM "Geofence" WHERE "seq" IN (${inList(seqs.length)})`,
  ).all(...seqs) as { seq: number; geometry: string }[];
  for (const r of rows) out.set(r.seq, (JSON.parse(r.geometry) as Position[][])[0] ?? []);
  return out;
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
  createdAt: string;
  updatedAt: string;
}

/** Whole geofences by seq, in the order given (Prisma's adapter writes DateTime as ISO text). */
export function geofencesBySeq(seqs: readonly number[], withGeometry: boolean): GeofenceRecord[] {
  if (!seqs.length) return [];
  const rows = prepared(`SELECT * FROM "Geofence" WHERE "seq" IN (${inList(seqs.length)})`).all(
    ...seqs,
  ) as GeofenceRow[];
  const bySeq = new Map(rows.map((r) => [r.seq, r]));
  return seqs.flatMap((seq) => {
    const r = bySeq.get(seq);
    if (!r) return [];
    return [
      {
        ...r,
        live: r.live === 1,
        enabled: r.enabled === 1,
        geometry: withGeometry ? (JSON.parse(r.geometry) as unknown) : null,
        metadata: r.metadata === null ? null : (JSON.parse(r.metadata) as unknown),
        createdAt: new Date(r.createdAt),
        updatedAt: new Date(r.updatedAt),
      },
    ];
  });
}
