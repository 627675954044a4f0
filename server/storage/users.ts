import type { Json } from "./json";
import type { BBox } from "../geo/distance";
import type { GeofenceFields } from "./geofence-records";
import type { MetadataFilter } from "./metadata-filter";

/* Users: lists, tables, lookups, trails and deletion. */

export interface StoredUser {
  seq: number;
  id: string;
  live: boolean;
  deviceId: string;
  userId: string | null;
  description: string | null;
  metadata: Json;
  deviceType: string | null;
  /**
   * what the device says of itself (deviceOS, deviceMake, deviceModel, sdkVersion, installId,
   * locationAuthorization, locationAccuracyAuthorization) and of its last fix (altitude, speed,
   * course, replayed): an object of those it sent (server/tracking/device.ts)
   */
  device: Json;
  foreground: boolean | null;
  stopped: boolean | null;
  latitude: number;
  longitude: number;
  accuracy: number;
  /** the region objects ({type, name, code}) of the last location */
  country: Json;
  state: Json;
  postalCode: Json;
  dma: Json;
  /** the place the user is stopped at (wire form), and since when */
  place: Json;
  placeEnteredAt: Date | null;
  createdAt: Date;
  /** the last update's time as the device sent it: which of its updates is newer */
  actualUpdatedAt: Date;
  /** that time made distinct within the world: what user lists sort and page on */
  updatedAt: Date;
}

/** The columns the dashboard's users table sorts by. */
export const USER_SORTS = ["updatedAt", "createdAt", "userId", "deviceId", "description"] as const;

/** Which users a list asks for: a window on updatedAt, and an area (west above east: across the antimeridian). */
export interface UserFilter {
  live: boolean;
  updatedBefore?: Date;
  updatedAfter?: Date;
  bounds?: { south: number; west: number; north: number; east: number };
}

/** A page of a table: matching `search` (user ID, device ID, description), sorted by `sort`. */
export interface UserTableQuery {
  search?: string;
  sort: (typeof USER_SORTS)[number];
  dir: "asc" | "desc";
  skip: number;
  take: number;
}

export interface UserStore {
  /** Newest update first (updatedAt, then id), at most `take` (all when undefined). */
  list(filter: UserFilter, take?: number): Promise<StoredUser[]>;
  /** Users whose _id, userId or deviceId is `ref`, most recently updated first. */
  matching(live: boolean, ref: string): Promise<StoredUser[]>;
  /** Users by seq (any order; those deleted are left out). */
  bySeqs(seqs: readonly number[]): Promise<StoredUser[]>;
  /** Users of a world by userId, and devices' users without one by deviceId (any order). */
  byOwners(live: boolean, userIds: readonly string[], deviceIds: readonly string[]): Promise<StoredUser[]>;
  /** The enabled geofences each of these users is in now. */
  geofencesOf(userSeqs: readonly number[]): Promise<{ userSeq: number; geofence: GeofenceFields }[]>;
  /** One page of the users table, and how many match in all (empty values sort last). */
  table(live: boolean, q: UserTableQuery): Promise<{ rows: StoredUser[]; total: number }>;
  /** Users inside a geofence now, newest update first, in the window of the cursors. */
  seqsInGeofence(
    geofenceSeq: number,
    q: { take?: number; updatedBefore?: Date; updatedAfter?: Date },
  ): Promise<{ seq: number; updatedAt: Date }[]>;
  /** Users of one world whose last location lies in `box`. */
  /** Users last located in `box`; with `metadata`, only those whose metadata matches. */
  inBox(
    live: boolean,
    box: BBox,
    metadata?: MetadataFilter,
  ): Promise<{ seq: number; latitude: number; longitude: number }[]>;
  /** A user's seq by its _id, or null. */
  seqById(live: boolean, id: string): Promise<number | null>;
  /** The device and userId of the most recently updated user whose SDK install is `installId`. */
  byInstallId(live: boolean, installId: string): Promise<{ deviceId: string; userId: string | null } | null>;
  /**
   * A user's most recent locations (by when the device was there), newest first; within
   * `window` (both ends included) when given: a trip's path, however much the user moved since.
   */
  locations(
    userSeq: number,
    limit: number,
    window?: { from: Date; to?: Date },
  ): Promise<{ latitude: number; longitude: number; accuracy: number; recordedAt: Date }[]>;
  /**
   * A user and everything about them (locations, memberships, events and their verifications), in
   * one change; false when the user was no longer there (another delete came first).
   */
  deleteEverything(seq: number): Promise<boolean>;
}
