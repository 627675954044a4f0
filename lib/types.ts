/** Wire shapes the dashboard reads (docs/api.md). */

export interface Geofence {
  _id: string;
  description: string;
  tag?: string;
  externalId?: string;
  type: "circle" | "polygon";
  geometryCenter: { type: "Point"; coordinates: [number, number] };
  geometryRadius: number;
  geometry?: { type: "Polygon"; coordinates: [number, number][][] };
  metadata?: Record<string, unknown>;
  enabled: boolean;
  dwellThreshold?: number;
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
  /** when the service received it */
  createdAt: string;
  /** when the user was there (the location update's own time) */
  actualCreatedAt: string;
  user: { _id: string; userId?: string; deviceId: string; description?: string };
  geofence?: Geofence;
  place?: Place;
  alternatePlaces?: Place[];
  verifiedPlace?: Place;
  region?: RegionObject;
  location: { type: "Point"; coordinates: [number, number] };
  locationAccuracy: number;
  confidence: 1 | 2 | 3;
  verification: -1 | 0 | 1;
  duration?: number;
}

export interface Me {
  account: { id: string; email: string; role: "admin" | "analyst" | "reviewer" };
  live: boolean;
  permissions: { geofences: boolean; users: boolean; events: boolean; keys: boolean };
}

export const CONFIDENCE = { 3: "high", 2: "medium", 1: "low" } as const;

/** The kinds of events tracking makes (the API's `types` filter takes these). */
export const EVENT_TYPES = [
  "user.entered_geofence",
  "user.exited_geofence",
  "user.dwelled_in_geofence",
  "user.entered_place",
  "user.exited_place",
] as const;

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
