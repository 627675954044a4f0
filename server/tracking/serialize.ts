import type { StoredEvent as Event } from "../storage/events";
import type { StoredUser as User } from "../storage/users";
import { type GeofenceFields, serializeGeofence } from "../geofences/schema";
import { withRegionId } from "../regions/ids";

/**
 * Wire forms of users and events. Each is built field by field, in the wire's order, and a field
 * without a value is left out; not with spreads (docs/development.md, "Objects on hot paths").
 */

type Wire = Record<string, unknown>;

/** Sets `key` when `value` has one. */
const put = (w: Wire, key: string, value: unknown) => {
  if (value !== null && value !== undefined) w[key] = value;
};

/** The user as events copy it. */
export function trimUser(u: Pick<User, "id" | "userId" | "deviceId" | "description" | "metadata">): Wire {
  const w: Wire = { _id: u.id };
  put(w, "userId", u.userId);
  w.deviceId = u.deviceId;
  put(w, "description", u.description);
  put(w, "metadata", u.metadata);
  return w;
}

type Embedded = ReturnType<typeof serializeGeofence>;
const embedded = new WeakMap<GeofenceFields, Readonly<Embedded>>();

/**
 * A geofence as users, events and context embed it (no geometry). Made once per geofence object:
 * tracking and search share decoded geofences across requests, one object per version
 * (server/geofences/decoded.ts), and an update copies each into its events and its user. The
 * copy is frozen, since it is shared.
 */
export function embeddedGeofence(g: GeofenceFields): Readonly<Embedded> {
  let e = embedded.get(g);
  if (!e) {
    e = Object.freeze(serializeGeofence(g, { includeGeometry: false, withUserIds: false }));
    embedded.set(g, e);
  }
  return e;
}

/**
 * `shown`: what the kinds show of the user (./kinds: the geofences it is in, the trip it is on —
 * the SDKs end theirs when a track answer has none — …), in wire form.
 */
export function serializeUser(u: User, shown: Record<string, unknown>): Wire {
  const w = trimUser(u);
  w.location = { type: "Point", coordinates: [u.longitude, u.latitude] };
  w.locationAccuracy = u.accuracy;
  put(w, "foreground", u.foreground);
  put(w, "stopped", u.stopped);
  put(w, "deviceType", u.deviceType);
  if (u.device && typeof u.device === "object") Object.assign(w, u.device);
  w.geofences = [];
  for (const key in shown) put(w, key, shown[key]);
  put(w, "place", u.place);
  put(w, "country", withRegionId(u.country));
  put(w, "state", withRegionId(u.state));
  put(w, "dma", withRegionId(u.dma));
  put(w, "postalCode", withRegionId(u.postalCode));
  w.createdAt = u.createdAt.toISOString();
  w.updatedAt = u.updatedAt.toISOString();
  // The time of the last update as the device sent it (updatedAt, kept apart for older rows).
  w.actualUpdatedAt = u.actualUpdatedAt.toISOString();
  w.live = u.live;
  return w;
}

export function serializeEvent(e: Event): Wire {
  const w: Wire = {
    _id: e.id,
    type: e.type,
    createdAt: e.createdAt.toISOString(),
    actualCreatedAt: e.actualCreatedAt.toISOString(),
    live: e.live,
    user: e.user,
  };
  put(w, "geofence", e.geofence);
  put(w, "place", e.place);
  put(w, "region", withRegionId(e.region));
  w.location = { type: "Point", coordinates: [e.longitude, e.latitude] };
  w.locationAccuracy = e.accuracy;
  w.confidence = e.confidence;
  w.verification = e.verification;
  put(w, "verifiedPlaceId", e.verifiedPlaceId);
  put(w, "verifiedPlace", e.verifiedPlace);
  put(w, "alternatePlaces", e.alternatePlaces);
  put(w, "duration", e.duration);
  put(w, "metadata", e.metadata);
  put(w, "trip", e.trip);
  // What a kind says of what the event is about that has no column of its own (a beacon).
  const kindFields = e.kindFields as Record<string, unknown> | null;
  if (kindFields) for (const key in kindFields) put(w, key, kindFields[key]);
  if (e.replayed) w.replayed = true;
  return w;
}
