import type { AuthKey } from "../auth/keys";
import { searchGeofences } from "../geofences/search";
import type { Coordinate } from "../http/fields";
import { embeddedGeofence } from "../tracking/serialize";

/**
 * The context of a coordinate: the enabled geofences that contain it, i.e. the geofence search
 * at distance 0. Nothing about the caller is sent or stored. (Place and regions join when
 * geodata lands.)
 */
export function getContext(key: AuthKey, near: Coordinate) {
  const hits = searchGeofences(key, {
    near,
    radius: 0,
    tags: undefined,
    limit: Infinity,
    includeGeometry: false,
  });
  const geofences = hits.filter((h) => h.geofence.enabled).map((h) => embeddedGeofence(h.geofence));
  return { live: key.live, geofences };
}
