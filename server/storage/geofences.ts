import type { GEOFENCE_SORTS, GeofenceColumns, GeofenceFields, StoredGeofence } from "./geofence-records";
import type { BBox, Position } from "../geo/distance";
import type { MetadataFilter } from "./metadata-filter";

/* Geofences: reads, writes, imports, the index of their boxes, and their decoded form. */

/** What a spatial search needs to bound a geofence's distance without reading its geometry. */
/** A geofence as the index of geofences holds it: its version, world, tag, state and box. */
export interface GeofenceBox {
  seq: number;
  /** updatedAt in ms: which version of the geofence this is (see GeofenceVersion) */
  version: number;
  live: boolean;
  tag: string | null;
  enabled: boolean;
  minLng: number;
  minLat: number;
  maxLng: number;
  maxLat: number;
}

/** Where a user inside a geofence is (to decide whether it still is). */
export interface MemberPosition {
  userSeq: number;
  userId: string | null;
  latitude: number;
  longitude: number;
  accuracy: number;
}

/** A geofence whose disableAfter or deleteAfter has come. */
export interface DueGeofence {
  id: string;
  live: boolean;
  /** deleteAfter has come (else disableAfter has) */
  deleteDue: boolean;
}

/** A geofence by its _id, or by its tag and externalId. */
export type GeofenceRef = { id: string } | { tag: string; externalId: string };

/** Which geofences a list asks for. */
export interface GeofenceFilter {
  live: boolean;
  tag?: string;
  createdBefore?: Date;
  createdAfter?: Date;
  /** boxes meeting this view (west above east: across the antimeridian) */
  bounds?: { south: number; west: number; north: number; east: number };
  /** text in the description, tag or external ID, ignoring case */
  search?: string;
  externalId?: string;
  updatedBefore?: Date;
  updatedAfter?: Date;
  /** Radar's metadata[key]=value filters (./metadata-filter.ts) */
  metadata?: MetadataFilter;
}

/** A page of the geofences table. */
export interface GeofenceTableQuery {
  search?: string;
  sort: (typeof GEOFENCE_SORTS)[number];
  dir: "asc" | "desc";
  skip: number;
  take: number;
}

/** How a conditional geofence update ended. */
export type GeofenceUpdate =
  /** written; `geofence` as it is now */
  | { status: "updated"; geofence: StoredGeofence }
  /** not written: changed since the version the update was made from; `geofence` as it is now */
  | { status: "changed"; geofence: StoredGeofence }
  /** not written: another geofence of the world has the tag and externalId */
  | { status: "taken" }
  /** not written: deleted */
  | { status: "gone" };

/** One geofence an import writes: a new one (seq null), or a stored one as of `version`. */
export type GeofenceChange =
  { seq: null; columns: GeofenceColumns } | { seq: number; version: Date; columns: GeofenceColumns };

/** How a batch of geofence changes ended. */
export type GeofenceBatch =
  | { status: "written"; created: number; updated: number[] }
  /** nothing written: these geofences changed since their versions, or were deleted */
  | { status: "changed"; seqs: number[] }
  /** nothing written: one of the tags and externalIds is another geofence's */
  | { status: "taken" };

export interface GeofenceStore {
  /**
   * Stores a new geofence (its _id and times given by the store, increasing in the order
   * geofences are created); null when another geofence of the world has its tag and externalId.
   */
  create(live: boolean, columns: GeofenceColumns): Promise<StoredGeofence | null>;
  /**
   * Replaces the geofence of the world with the tag and externalId the columns name, or creates
   * it; `replaced` says which.
   */
  put(
    live: boolean,
    columns: GeofenceColumns & { tag: string; externalId: string },
  ): Promise<{ geofence: StoredGeofence; replaced: boolean }>;
  /**
   * Writes many geofences in one change (an import's chunk): new ones, and changes of stored ones
   * each made from the version it names. Nothing is written when one cannot be: a geofence
   * changed since its version (or deleted), or a tag and externalId another geofence has.
   */
  applyMany(live: boolean, changes: readonly GeofenceChange[]): Promise<GeofenceBatch>;
  /** Geofences by _id or by tag and externalId, many at once (those not found left out). */
  byRefs(live: boolean, refs: readonly GeofenceRef[]): Promise<StoredGeofence[]>;
  /** Sets a geofence's columns if it is still the version last updated at `version`. */
  update(seq: number, version: Date, columns: GeofenceColumns): Promise<GeofenceUpdate>;
  /** The world's geofences (of one tag, if given) after seq `after`, oldest first, at most `take`. */
  pageAfter(live: boolean, after: number, take: number, tag?: string): Promise<StoredGeofence[]>;
  byRef(live: boolean, ref: GeofenceRef): Promise<StoredGeofence | null>;
  /** Deletes it (its users are taken out of it in the same change); false when there was none. */
  delete(live: boolean, ref: GeofenceRef): Promise<boolean>;
  /**
   * Geofences whose time has come at `now`: deleteAfter passed, or enabled with disableAfter
   * passed (at most `take`, soonest first by seq).
   */
  due(now: Date, take: number): Promise<DueGeofence[]>;
  /** The isochrone geofences of both worlds, oldest first, at most `take` after seq `after`. */
  isochrones(after: number, take: number): Promise<StoredGeofence[]>;
  /** Newest first (createdAt, then id), at most `take` (all when undefined). */
  list(filter: GeofenceFilter, take?: number): Promise<StoredGeofence[]>;
  /** One page of the geofences table, and how many match in all (empty values sort last). */
  table(live: boolean, q: GeofenceTableQuery): Promise<{ rows: StoredGeofence[]; total: number }>;
  /**
   * The geofences of a world whose box meets `box` (of some tags only, enabled ones only), from
   * this process's index of geofences brought up to date with what the database holds now.
   */
  inBox(
    live: boolean,
    box: BBox,
    filter?: { tags?: readonly string[]; enabledOnly?: boolean },
  ): Promise<GeofenceBox[]>;
  /** Geofences as tracking and search decode them (outer ring, no geometry), by seq. */
  decodable(seqs: readonly number[]): Promise<TrackedGeofence[]>;
  /**
   * After geofences' shapes or states changed: the users inside each for whom `stillInside` (given
   * the geofence as it is now, null when gone) says no are no longer counted inside, all in one
   * change (an import's chunk reconciles its geofences together).
   */
  reconcileMembers(
    geofenceSeqs: readonly number[],
    stillInside: (g: TrackedGeofence | null, m: MemberPosition) => boolean,
  ): Promise<void>;
}

/**
 * A geofence as tracking and search use it, decoded: its wire fields, its geometry (the stored
 * polygon; a circle's approximation) and the ring its distances are measured to (the outer
 * ring; empty for circles, which are measured from center and radius).
 */
export type TrackedGeofence = Omit<GeofenceFields, "geometry"> & {
  seq: number;
  geometry: Position[][];
  ring: Position[];
};

/** Which version of a geofence is stored: its seq and updatedAt (in ms), which every write moves on. */
export interface GeofenceVersion {
  seq: number;
  version: number;
}
