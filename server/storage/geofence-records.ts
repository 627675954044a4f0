import type { Json } from "./json";
import type { Position } from "../geo/distance";

/* A geofence as stored, and what a write sets. */

export interface StoredGeofence {
  /** integer key for the spatial indexes */
  seq: number;
  id: string;
  live: boolean;
  description: string;
  tag: string | null;
  externalId: string | null;
  /** "circle", "polygon" or "isochrone" (a polygon drawn from the roads) */
  type: string;
  /** GeoJSON Polygon coordinates ([[[lng, lat], …]]); circles are stored as their ring */
  geometry: Json;
  centerLng: number;
  centerLat: number;
  /** meters: a circle's radius, or a polygon's distance from center to its farthest vertex */
  radius: number;
  minLng: number;
  minLat: number;
  maxLng: number;
  maxLat: number;
  metadata: Json;
  enabled: boolean;
  dwellThreshold: number | null;
  /** only these users (by userId: a JSON array of strings) make events in it; null: every user */
  userIds: Json;
  /** entries only while the user is stopped */
  stopDetection: boolean;
  /** when it is disabled, and when it is deleted (server/geofences/expiry.ts) */
  disableAfter: Date | null;
  deleteAfter: Date | null;
  /** an isochrone's making (IsochroneMaking); null for circles and polygons */
  isochrone: Json;
  createdAt: Date;
  /** the version: every write makes it later */
  updatedAt: Date;
}

/** What a geofence's wire form is made of (server/geofences/schema.ts serializes it). */
export type GeofenceFields = Pick<
  StoredGeofence,
  | "id"
  | "createdAt"
  | "updatedAt"
  | "live"
  | "description"
  | "tag"
  | "externalId"
  | "type"
  | "geometry"
  | "centerLng"
  | "centerLat"
  | "radius"
  | "metadata"
  | "enabled"
  | "dwellThreshold"
  | "userIds"
  | "stopDetection"
  | "disableAfter"
  | "deleteAfter"
>;

/**
 * How an isochrone geofence's polygon was made: the area reachable within `minutes` by `mode`
 * from its center, on the roads of the imports `roads` names.
 */
export interface IsochroneMaking {
  mode: string;
  minutes: number;
  roads: string;
}

/** What a geofence write sets: its shape, box and fields (server/geofences/schema.ts makes it). */
export interface GeofenceColumns {
  description: string;
  tag: string | null;
  externalId: string | null;
  type: "circle" | "polygon" | "isochrone";
  geometry: Position[][];
  centerLng: number;
  centerLat: number;
  radius: number;
  minLng: number;
  minLat: number;
  maxLng: number;
  maxLat: number;
  /** undefined: none */
  metadata: Record<string, string | number | boolean> | undefined;
  enabled: boolean;
  dwellThreshold: number | null;
  userIds: string[] | null;
  stopDetection: boolean;
  disableAfter: Date | null;
  deleteAfter: Date | null;
  isochrone: IsochroneMaking | null;
}

/** The columns the dashboard's geofences table sorts by. */
export const GEOFENCE_SORTS = [
  "createdAt",
  "updatedAt",
  "description",
  "tag",
  "externalId",
  "type",
  "enabled",
] as const;
