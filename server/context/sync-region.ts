import type { AuthKey } from "../auth/keys";
import { searchPlaces, serializePlace } from "../geodata/places";
import { activeFor } from "../geofences/active";
import { serializeGeofence } from "../geofences/schema";
import { searchGeofences } from "../geofences/search";
import { haversine } from "../geo/distance";
import { searchBeacons } from "../tracking/beacons/api";
import { serializeBeacon } from "../tracking/beacons/schema";

/**
 * POST /v1/sync/region (the SDKs' offline events, `useSyncRegion`): the enabled geofences, the
 * imported places and the enabled beacons around a device, and the circle they cover (`region`): the SDK decides entries
 * and exits itself while it stays inside, and asks again near the edge. The circle holds every
 * geofence and place that comes within it: when there are more than SYNC.limit, it shrinks to
 * the distance of the last one sent. Geofences that name other users than `userId` (userIds) are
 * left out: they make no events for this device.
 */
export const SYNC = { radius: 5_000, limit: 500 } as const;

export async function syncRegion(key: AuthKey, at: { latitude: number; longitude: number; userId?: string }) {
  const geofences = await searchGeofences(key, {
    near: at,
    radius: SYNC.radius,
    tags: undefined,
    limit: SYNC.limit,
  });
  const places = searchPlaces(at.longitude, at.latitude, { radius: SYNC.radius, limit: SYNC.limit });
  const { beacons } = await searchBeacons(key, at, SYNC.radius, SYNC.limit);
  const beaconDistance = (b: (typeof beacons)[number]) =>
    haversine(at.longitude, at.latitude, b.longitude, b.latitude);
  let radius: number = SYNC.radius;
  if (beacons.length === SYNC.limit) radius = Math.min(radius, beaconDistance(beacons.at(-1)!));
  if (geofences.length === SYNC.limit) radius = Math.min(radius, geofences.at(-1)!.distance);
  if (places.length === SYNC.limit) radius = Math.min(radius, places.at(-1)!.distance);
  const now = new Date();
  return {
    geofences: geofences
      .filter((h) => h.distance <= radius && activeFor(h.geofence, at.userId ?? null, now))
      .map((h) => serializeGeofence(h.geofence, { withUserIds: key.kind !== "publishable" })),
    places: places.filter((p) => p.distance <= radius).map((p) => serializePlace(p.place)),
    beacons: beacons.filter((b) => beaconDistance(b) <= radius).map(serializeBeacon),
    // A region of no size would make the SDKs track online anyway: it is left out.
    ...(radius > 0 && { region: { latitude: at.latitude, longitude: at.longitude, radius } }),
  };
}
