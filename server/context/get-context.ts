import type { AuthKey } from "../auth/keys";
import { geofenceBoundsInBox, geofenceRings, geofencesBySeq } from "../db/sqlite/geofences";
import type { Coordinate } from "../http/fields";
import { distanceToShape } from "../geofences/shape";
import { embeddedGeofence } from "../tracking/serialize";

/**
 * The context of a coordinate: the enabled geofences that contain it. Nothing about the caller
 * is sent or stored. (Place and regions join when geodata lands.)
 */
export function getContext(key: AuthKey, { latitude: lat, longitude: lng }: Coordinate) {
  const candidates = geofenceBoundsInBox(key.live, { minLng: lng, maxLng: lng, minLat: lat, maxLat: lat });
  const rings = geofenceRings(candidates.filter((c) => c.type !== "circle").map((c) => c.seq));
  const containing = candidates.filter(
    (c) => distanceToShape(lng, lat, { ...c, ring: rings.get(c.seq) ?? [] }) === 0,
  );
  const geofences = geofencesBySeq(
    containing.map((c) => c.seq),
    false,
  ).filter((g) => g.enabled);
  return { live: key.live, geofences: geofences.map(embeddedGeofence) };
}
