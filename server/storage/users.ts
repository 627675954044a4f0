import type { BBox } from "../geo/distance";
import type { GeofenceFields, StoredUser, USER_SORTS } from "./records";
import type { MetadataFilter } from "./metadata-filter";

/* Users: lists, tables, lookups, trails and deletion. */

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
  /** A user's most recent locations (by when the device was there), newest first. */
  locations(
    userSeq: number,
    limit: number,
  ): Promise<{ latitude: number; longitude: number; accuracy: number; recordedAt: Date }[]>;
  /**
   * A user and everything about them (locations, memberships, events and their verifications), in
   * one change; false when the user was no longer there (another delete came first).
   */
  deleteEverything(seq: number): Promise<boolean>;
}
