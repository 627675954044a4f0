/**
 * The records the storage port hands the domain: plain data of its own, whatever the engine and
 * its client (the adapters map their rows onto these). JSON columns are decoded values.
 */

import type { Position } from "../geo/distance";

/** A decoded JSON column: the domain says what it expects where it reads one. */
export type Json = unknown;

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

export interface StoredEvent {
  seq: number;
  id: string;
  live: boolean;
  type: string;
  userSeq: number;
  /** the user as it was when the event happened (trimmed) */
  user: Json;
  geofenceId: string | null;
  /** the geofence as it was when the event happened (without geometry) */
  geofence: Json;
  /** the class its verdicts are pooled over (server/events/subject.ts) */
  subject: string | null;
  region: Json;
  place: Json;
  placeId: string | null;
  alternatePlaces: Json;
  verifiedPlace: Json;
  latitude: number;
  longitude: number;
  accuracy: number;
  confidence: number;
  probability: number;
  /** "core" or "edge" */
  band: string;
  verification: number;
  verifiedAt: Date | null;
  verifiedPlaceId: string | null;
  duration: number | null;
  /** a conversion's own fields (revenue among them) */
  metadata: Json;
  /** a trip event's trip, as it was (wire form) */
  trip: Json;
  createdAt: Date;
  actualCreatedAt: Date;
  /** made from a location the SDK replayed (stored offline, sent later) */
  replayed: boolean;
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

/** The columns the dashboard's tables sort by. */
export const GEOFENCE_SORTS = [
  "createdAt",
  "updatedAt",
  "description",
  "tag",
  "externalId",
  "type",
  "enabled",
] as const;
export const USER_SORTS = ["updatedAt", "createdAt", "userId", "deviceId", "description"] as const;

/** A webhook as stored (docs/webhooks.md); its token is read only to sign. */
export interface StoredWebhook {
  seq: number;
  id: string;
  live: boolean;
  url: string;
  mode: "single" | "multiple";
  /** the event types it receives; null: all */
  types: string[] | null;
  enabled: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/** What tracking needs of an enabled webhook to fill its outbox. */
export type WebhookTarget = Pick<StoredWebhook, "seq" | "mode" | "types">;

/**
 * What one update's events owe the webhooks, as tracking writes it (one row, whatever the number
 * of webhooks): the webhooks enabled for its world when the events were made, the events and the
 * user as the API serialized them then. A sender splits it into requests (DeliveryWrite).
 */
export interface OutboxWrite {
  live: boolean;
  userId: string;
  targets: WebhookTarget[];
  /** each event's _id, type, and the event as GET /v1/events/{id} serialized it */
  events: { id: string; type: string; wire: unknown }[];
  /** the user as GET /v1/users/{id} serialized it */
  user: unknown;
  createdAt: Date;
}

/** An outbox row as read back: the user is the JSON text written (bodies are made around it). */
export interface StoredOutbox extends Omit<OutboxWrite, "user"> {
  seq: number;
  userJson: string;
}

/**
 * An outbox row of the sender's own process, as its turn hands it out: once every earlier row of
 * its user still in the outbox is one the sender holds (or one handed out before it).
 */
export interface OwnOutbox extends StoredOutbox {
  /** webhooks whose queue for this user has requests pending (the row's go last in them) */
  busy: number[];
}

/** A request owed to a webhook, as the outbox writes it. */
export interface DeliveryWrite {
  id: string;
  webhookSeq: number;
  live: boolean;
  userId: string;
  types: string;
  eventIds: string;
  body: string;
  nextAttemptAt: Date;
  createdAt: Date;
}

export type DeliveryStatus = "pending" | "delivered" | "failed";

export interface StoredDelivery extends DeliveryWrite {
  seq: number;
  status: DeliveryStatus;
  attempts: number;
  lastAttemptAt: Date | null;
  lastStatus: number | null;
  lastError: string | null;
  deliveredAt: Date | null;
}

/**
 * The first delivery of a (webhook, user) queue a sender holds until the outcome is recorded:
 * with where it goes and the key it is signed with.
 */
export interface ClaimedDelivery extends StoredDelivery {
  url: string;
  token: string;
}

/** How an attempt ended: delivered, or when to try again (null: give up, failed). */
export type AttemptOutcome =
  | { delivered: true; status: number }
  | { delivered: false; status: number | null; error: string | null; retryAt: Date | null };

/**
 * A request of a sender's own outbox row (`row`), to write: sent straight from the row, with when
 * and how its attempt ended, or not tried (`outcome` null: it goes last in its queue).
 */
export interface OwnRequest {
  row: number;
  delivery: DeliveryWrite;
  at: Date | null;
  outcome: AttemptOutcome | null;
}

/** An attempt that ended: which delivery (as it was claimed), when, how. */
export interface FinishedAttempt {
  delivery: Pick<ClaimedDelivery, "seq" | "webhookSeq" | "userId" | "attempts">;
  at: Date;
  outcome: AttemptOutcome;
}

/** A trip (server/trips/): a user's journey to a destination, or through legs. */
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
  /** the legs in order (server/trips/legs.ts): a JSON array, or null for a trip without legs */
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
