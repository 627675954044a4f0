/** Wire shapes the dashboard reads (docs/api.md). */

export interface Geofence {
  _id: string;
  description: string;
  tag?: string;
  externalId?: string;
  type: "circle" | "polygon" | "isochrone";
  /** isochrones only: what it was drawn for */
  isochrone?: { mode: string; minutes: number };
  geometryCenter: { type: "Point"; coordinates: [number, number] };
  geometryRadius: number;
  geometry?: { type: "Polygon"; coordinates: [number, number][][] };
  metadata?: Record<string, unknown>;
  enabled: boolean;
  dwellThreshold?: number;
  /** only these users (by userId) make events in it */
  userIds?: string[];
  /** entries only while the user is stopped */
  stopDetection?: boolean;
  /** when it is disabled, and deleted, by the service */
  disableAfter?: string;
  deleteAfter?: string;
  createdAt: string;
  updatedAt: string;
}

export interface User {
  _id: string;
  userId?: string;
  deviceId: string;
  description?: string;
  metadata?: Record<string, unknown>;
  location: { type: "Point"; coordinates: [number, number] };
  locationAccuracy: number;
  geofences: Geofence[];
  createdAt: string;
  updatedAt: string;
  // What the device says of itself and of its last fix (Radar's SDKs send them), when it did.
  deviceType?: string;
  deviceOS?: string;
  deviceMake?: string;
  deviceModel?: string;
  sdkVersion?: string;
  installId?: string;
  locationAuthorization?: string;
  locationAccuracyAuthorization?: string;
  foreground?: boolean;
  stopped?: boolean;
  replayed?: boolean;
  altitude?: number;
  speed?: number;
  course?: number;
}

/** An imported place (GET /v1/search/places, place events). */
export interface Place {
  _id: string;
  name: string;
  location: { type: "Point"; coordinates: [number, number] };
  categories: string[];
  chain?: { slug: string; name: string };
  group?: string;
  distance?: number;
}

export interface RegionObject {
  type: string;
  name: string;
  code?: string;
}

export interface LocationEvent {
  _id: string;
  type: string;
  /** when it happened: the location update's own time (Radar's meaning); sorts lists */
  createdAt: string;
  /** when the service made it (later than createdAt for updates sent late, such as replays) */
  actualCreatedAt: string;
  user: { _id: string; userId?: string; deviceId: string; description?: string };
  geofence?: Geofence;
  place?: Place;
  alternatePlaces?: Place[];
  verifiedPlace?: Place;
  region?: RegionObject;
  location: { type: "Point"; coordinates: [number, number] };
  locationAccuracy: number;
  /** 0 for conversions (not decided from a location) */
  confidence: 0 | 1 | 2 | 3;
  verification: -1 | 0 | 1;
  duration?: number;
  /** a conversion's own fields (revenue among them) */
  metadata?: Record<string, unknown>;
}

/** Conversions of one name on one UTC day (GET /api/events/conversions). */
export interface ConversionDay {
  day: string;
  name: string;
  count: number;
  revenue: number;
}

export interface Me {
  account: { id: string; email: string; role: "admin" | "analyst" | "reviewer" };
  live: boolean;
  permissions: { geofences: boolean; users: boolean; events: boolean; keys: boolean };
}

export const CONFIDENCE = { 3: "high", 2: "medium", 1: "low", 0: "none" } as const;

/** Where each role lands after signing in: reviewers spend their day in the review queue. */
export const HOME_FOR_ROLE: Record<string, string> = {
  admin: "/overview",
  analyst: "/overview",
  reviewer: "/events",
};

/**
 * The kinds of events tracking makes, with their names in words (the API's `types` filter takes
 * every one of these; a test holds tracking to this list).
 */
export const EVENT_TYPE_NAMES = {
  "user.entered_geofence": "Entered geofence",
  "user.exited_geofence": "Exited geofence",
  "user.dwelled_in_geofence": "Dwelled in geofence",
  "user.entered_place": "Entered place",
  "user.exited_place": "Exited place",
  "user.entered_region_country": "Entered country",
  "user.exited_region_country": "Exited country",
  "user.entered_region_state": "Entered state",
  "user.exited_region_state": "Exited state",
  "user.entered_region_postal_code": "Entered postal code",
  "user.exited_region_postal_code": "Exited postal code",
  "user.entered_region_dma": "Entered DMA",
  "user.exited_region_dma": "Exited DMA",
  "user.started_trip": "Started trip",
  "user.updated_trip": "Updated trip",
  "user.approaching_trip_destination": "Approaching trip destination",
  "user.arrived_at_trip_destination": "Arrived at trip destination",
  "user.arrived_at_wrong_trip_destination": "Arrived at wrong trip destination",
  // Names of leg events stored by earlier releases (legs now use the trip destination names).
  "user.approaching_trip_leg_destination": "Approaching trip leg destination",
  "user.arrived_at_trip_leg_destination": "Arrived at trip leg destination",
  "user.stopped_trip": "Stopped trip",
  "user.entered_beacon": "Entered beacon",
  "user.exited_beacon": "Exited beacon",
} as const;

export type EventType = keyof typeof EVENT_TYPE_NAMES;
export const EVENT_TYPES = Object.keys(EVENT_TYPE_NAMES) as EventType[];

/**
 * A conversion's name (POST /v1/events): the type of its event. Radar's own types (user.…) are
 * not conversions.
 */
export const CONVERSION_NAME = /^(?!user\.)[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/;
export const isConversionType = (type: string) => CONVERSION_NAME.test(type);

/** An address (forward, reverse geocoding and autocomplete: docs/api.md#address-object). */
export interface GeoAddress {
  latitude?: number;
  longitude?: number;
  formattedAddress?: string;
  addressLabel?: string;
  placeLabel?: string;
  number?: string;
  street?: string;
  city?: string;
  postalCode?: string;
  countryCode?: string;
  countryFlag?: string;
  layer: string;
  confidence: string;
  distance?: number;
}

/** Route distance, matrix and transit answers as the playground reads them (docs/routing.md). */
export interface Measure {
  value: number;
  text: string;
}

export interface RoutePlace {
  name?: string;
  stopId?: string;
  latitude: number;
  longitude: number;
}

export interface TransitLegAnswer {
  mode: "walk" | "transit";
  distance: Measure;
  duration: Measure;
  departureTime: string;
  arrivalTime: string;
  from: RoutePlace;
  to: RoutePlace;
  route?: { id: string; shortName: string; longName: string };
  trip?: { id: string; headsign?: string };
  stops?: number;
  seated?: boolean;
  geometry?: { type: "LineString"; coordinates: [number, number][] };
}

export interface RouteAnswer {
  distance?: Measure;
  duration?: Measure;
  geometry?: { type: "LineString"; coordinates: [number, number][] };
  unavailable?: string;
  /** transit */
  departureTime?: string;
  arrivalTime?: string;
  walkingOnly?: boolean;
  walking?: { distance: Measure; duration: Measure };
  legs?: TransitLegAnswer[];
}

export type RouteAnswers = Record<string, RouteAnswer>;

/** GET /api/overview: the overview page's figures (server/operations/overview.ts). */
export interface OverviewView {
  world: "live" | "test";
  at: string;
  users: { lastHour: number; lastDay: number };
  /** the last 24 hours (each the start of an hour, oldest first) and each type's count per hour */
  events: { hours: string[]; types: { type: string; counts: number[]; total: number }[]; total: number };
  /** unverified events: `more` when there are more than `count` */
  reviewQueue: { count: number; more: boolean; oldestAt: string | null; ageSeconds: number | null };
  trips: { active: number; delayed: number };
  webhooks: {
    enabled: number;
    /** webhooks whose requests are being retried or were given up */
    failing: number;
    failedWindowHours: number;
    list: {
      id: string;
      url: string;
      enabled: boolean;
      pending: number;
      retrying: number;
      failed: number;
      lagSeconds: number;
    }[];
  };
  imports: {
    name: string;
    kind: "osm" | "gtfs";
    importedAt: string;
    source: string;
    counts: Record<string, number>;
  }[];
  system: {
    version: string;
    engine: "sqlite" | "postgresql";
    migrations: { applied: number; pending: string[]; latest: string | null };
    bundles: { open: number; failed: { name: string; reason: string }[] };
    /** app processes alive on this database */
    processes: number;
    /** this process's /v1 traffic over the last minutes; null with METRICS=off */
    requests: { seconds: number; requests: number; perSecond: number; p99Ms: number | null } | null;
  };
}
