import type { AuthKey } from "../auth/keys";
import { searchGeofences } from "../geofences/search";
import type { Coordinate } from "../http/fields";
import { embeddedRegionsAt } from "../regions/embedded";
import { embeddedGeofence } from "../tracking/serialize";

/**
 * The context of a coordinate: the enabled geofences that contain it (the geofence search at
 * distance 0), and the country and US state from the embedded regions (docs/data.md). Nothing
 * about the caller is sent or stored. Place, postal code and DMA are omitted until imported data
 * provides them: absent data is never invented.
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
  const { country, state } = embeddedRegionsAt(near.longitude, near.latitude);
  return { live: key.live, geofences, ...(country && { country }), ...(state && { state }) };
}
