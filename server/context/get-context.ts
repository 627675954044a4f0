import type { AuthKey } from "../auth/keys";
import { searchGeofences } from "../geofences/search";
import type { Coordinate } from "../http/fields";
import { placeAt, serializePlace } from "../geodata/places";
import { regionsAt } from "../geodata/regions";
import { withRegionId } from "../regions/ids";
import { embeddedGeofence } from "../tracking/serialize";

/**
 * The context of a coordinate: the enabled geofences that contain it (the geofence search at
 * distance 0), the place it is at (inside or within 50 m of an imported place), and its country,
 * state, postal code and DMA, from imported boundaries first and embedded data otherwise
 * (docs/data.md). Nothing about the caller is sent or stored; absent data is never invented.
 */
export async function getContext(key: AuthKey, near: Coordinate) {
  const hits = await searchGeofences(key, {
    near,
    radius: 0,
    tags: undefined,
    limit: Infinity,
  });
  const geofences = hits.map((h) => embeddedGeofence(h.geofence));
  const place = placeAt(near.longitude, near.latitude);
  const regions = regionsAt(near.longitude, near.latitude);
  const withIds = Object.fromEntries(Object.entries(regions).map(([k, r]) => [k, withRegionId(r)]));
  return { live: key.live, geofences, ...(place && { place: serializePlace(place) }), ...withIds };
}
