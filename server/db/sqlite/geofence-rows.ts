/**
 * A geofence's version (see GeofenceVersion): its updatedAt in ms, computed by SQLite from the
 * text Prisma writes (julianday keeps whole milliseconds; ROUND takes off the float's error).
 */
export const VERSION_MS = (g: string) =>
  `CAST(ROUND((julianday(${g}."updatedAt") - 2440587.5) * 86400000) AS INTEGER)`;
export const VERSION = (g: string) => `${VERSION_MS(g)} AS "version"`;

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
