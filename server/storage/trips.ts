import type { Json } from "./json";
import { trackingPart } from "./tracking";

/* Trips: lists, lookups, expiry, and what tracking reads and writes of them. */

/** A trip (server/tracking/trips/): a user's journey to a destination, or through legs. */
export interface StoredTrip {
  seq: number;
  id: string;
  live: boolean;
  externalId: string;
  /** whose trip: the userId, else (for devices without one) the deviceId */
  userId: string | null;
  deviceId: string | null;
  /** pending, started, approaching, arrived, completed, canceled, expired */
  status: string;
  /** car, foot, bike, truck, motorbike */
  mode: string;
  metadata: Json;
  destinationGeofenceTag: string | null;
  destinationGeofenceExternalId: string | null;
  destinationGeofenceId: string | null;
  destinationLatitude: number | null;
  destinationLongitude: number | null;
  /** meters, for a destination without a geofence */
  arrivalRadius: number | null;
  /** minutes */
  approachingThreshold: number;
  scheduledArrivalAt: Date | null;
  /** meters and minutes to the current destination */
  etaDistance: number | null;
  etaDuration: number | null;
  /** "road" or "straight_line" */
  etaSource: string | null;
  /** minutes behind scheduledArrivalAt */
  delayMinutes: number | null;
  /** the legs in order (server/tracking/trips/model.ts): a JSON array, or null for a trip without legs */
  legs: Json;
  /** user.started_trip was made */
  startNotified: boolean;
  createdAt: Date;
  updatedAt: Date;
  startedAt: Date | null;
  endedAt: Date | null;
  expiresAt: Date;
}

/** A trip's columns as the adapters write them (all but seq), in one order for both engines. */
export const TRIP_COLUMNS = [
  "id",
  "live",
  "externalId",
  "userId",
  "deviceId",
  "status",
  "mode",
  "metadata",
  "destinationGeofenceTag",
  "destinationGeofenceExternalId",
  "destinationGeofenceId",
  "destinationLatitude",
  "destinationLongitude",
  "arrivalRadius",
  "approachingThreshold",
  "scheduledArrivalAt",
  "etaDistance",
  "etaDuration",
  "etaSource",
  "delayMinutes",
  "legs",
  "startNotified",
  "createdAt",
  "updatedAt",
  "startedAt",
  "endedAt",
  "expiresAt",
] as const satisfies readonly (keyof Omit<StoredTrip, "seq">)[];

/** A trip's statuses (docs/trips.md#tracking-moves-trips-on). */
export const TRIP_STATUSES = [
  "pending",
  "started",
  "approaching",
  "arrived",
  "completed",
  "canceled",
  "expired",
] as const;
export type TripStatus = (typeof TRIP_STATUSES)[number];

/** The trips tracking moves on: on a user's `trip`, one per user at most. */
export const ACTIVE_STATUSES: readonly TripStatus[] = ["started", "approaching", "arrived"];
export const ENDED_STATUSES: readonly TripStatus[] = ["completed", "canceled", "expired"];
/** The trips that expire when their expiresAt passes: not yet ended. */
export const UNENDED_STATUSES: readonly TripStatus[] = ["pending", ...ACTIVE_STATUSES];

/** An SQL condition on a "status" column: one of `statuses` (the lists above hold no quote). */
export const statusIn = (statuses: readonly TripStatus[]) =>
  `"status" IN (${statuses.map((s) => `'${s}'`).join(", ")})`;

/** A trip by its _id or its externalId. */
export type TripRef = { id: string } | { externalId: string };

/** Whose trip: a userId, or a device that reports none. */
export type TripOwner = { userId: string } | { deviceId: string };

/** A trip a plan writes: new (seq null), or the stored one with these columns. */
export interface TripWrite {
  seq: number | null;
  trip: Omit<StoredTrip, "seq">;
}

/** Where the trip a user is on goes, and what tripOptions name it by. */
export interface ActiveDestination {
  id: string;
  externalId: string;
  mode: string;
  /** null: a trip without a destination (no ETA) */
  latitude: number | null;
  longitude: number | null;
  geofenceId: string | null;
  tag: string | null;
  geofenceExternalId: string | null;
}

/** Which trips a list asks for (every field optional but the world). */
export interface TripFilter {
  live: boolean;
  statuses?: readonly string[];
  /** the destination geofence's tag and/or externalId */
  destinationGeofenceTag?: string;
  destinationGeofenceExternalId?: string;
  externalId?: string;
  userId?: string;
  createdAfter?: Date;
  createdBefore?: Date;
  delayed?: boolean;
  sortBy?: "createdAt" | "updatedAt" | "scheduledArrivalAt";
  /** trips of these users (by userId), or of these devices without one */
  owners?: { userIds: readonly string[]; deviceIds: readonly string[] };
}

export interface TripStore {
  /** Newest first by `sortBy` (createdAt when absent), at most `take` (all when undefined). */
  list(filter: TripFilter, take?: number): Promise<StoredTrip[]>;
  byRef(live: boolean, ref: TripRef): Promise<StoredTrip | null>;
  /**
   * The trip a user or device is on (its destination and mode), read outside any transaction
   * (before tracking decides, so the road ETA is computed off the tracking transaction): null
   * when none, which is most updates, so adapters answer it from an index in microseconds.
   */
  activeDestination(live: boolean, owner: TripOwner): Promise<ActiveDestination | null>;
  /** Deletes a trip (its events stay); false when there was none. */
  delete(live: boolean, ref: TripRef): Promise<boolean>;
  /** Marks trips past their expiresAt (pending or active) expired, at most `take`; how many. */
  expire(now: Date, take: number): Promise<number>;
}

/** What trip events read inside an update's transaction (or a trip call's); they write trips. */
export interface TripTrackingReader {
  /** The trip of a world with this _id or externalId. */
  tripByRef(live: boolean, ref: TripRef): Promise<StoredTrip | null>;
  /** The trip a user (by userId) or a device without one is on: started, approaching or arrived. */
  activeTrip(live: boolean, owner: TripOwner): Promise<StoredTrip | null>;
}

/** Trips made (seq null) or changed with a plan. */
export const TRIP_TRACKING = trackingPart<TripTrackingReader, TripWrite[]>("trips");
