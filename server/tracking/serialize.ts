import type { StoredEvent as Event, StoredUser as User } from "../storage";
import { type GeofenceFields, serializeGeofence } from "../geofences/schema";

/** Wire forms of users and events. */

const optional = <K extends string, V>(key: K, value: V | null | undefined) =>
  (value === null || value === undefined ? {} : { [key]: value }) as Partial<Record<K, V>>;

/** The user as events copy it. */
export function trimUser(u: Pick<User, "id" | "userId" | "deviceId" | "description" | "metadata">) {
  return {
    _id: u.id,
    ...optional("userId", u.userId),
    deviceId: u.deviceId,
    ...optional("description", u.description),
    ...optional("metadata", u.metadata),
  };
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
    e = Object.freeze(serializeGeofence(g, { includeGeometry: false }));
    embedded.set(g, e);
  }
  return e;
}

/** `trip`: the trip the user is on, in wire form (the SDKs end theirs when a track answer has none). */
export function serializeUser(u: User, geofences: GeofenceFields[], trip?: unknown) {
  return {
    ...trimUser(u),
    location: { type: "Point", coordinates: [u.longitude, u.latitude] },
    locationAccuracy: u.accuracy,
    ...optional("foreground", u.foreground),
    ...optional("stopped", u.stopped),
    ...optional("deviceType", u.deviceType),
    ...(u.device && typeof u.device === "object" ? u.device : {}),
    geofences: geofences.map(embeddedGeofence),
    ...optional("place", u.place),
    ...optional("country", u.country),
    ...optional("state", u.state),
    ...optional("dma", u.dma),
    ...optional("postalCode", u.postalCode),
    ...optional("trip", trip),
    createdAt: u.createdAt.toISOString(),
    updatedAt: u.updatedAt.toISOString(),
    // The time of the last update as the device sent it; updatedAt may be a few ms later (it is
    // made distinct for the lists' cursors).
    actualUpdatedAt: u.actualUpdatedAt.toISOString(),
    live: u.live,
  };
}

export function serializeEvent(e: Event) {
  return {
    _id: e.id,
    type: e.type,
    createdAt: e.createdAt.toISOString(),
    actualCreatedAt: e.actualCreatedAt.toISOString(),
    live: e.live,
    user: e.user,
    ...optional("geofence", e.geofence),
    ...optional("place", e.place),
    ...optional("region", e.region),
    location: { type: "Point", coordinates: [e.longitude, e.latitude] },
    locationAccuracy: e.accuracy,
    confidence: e.confidence,
    verification: e.verification,
    ...optional("verifiedPlaceId", e.verifiedPlaceId),
    ...optional("verifiedPlace", e.verifiedPlace),
    ...optional("alternatePlaces", e.alternatePlaces),
    ...optional("duration", e.duration),
    ...optional("metadata", e.metadata),
    ...optional("trip", e.trip),
  };
}
