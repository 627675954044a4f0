import type { z } from "zod";
import type { AuthKey } from "../auth/keys";
import { geofencesInBox } from "../db/dialect";
import { bboxAround } from "../geo/distance";
import { type GeofenceRecord, ringOf, type searchQuerySchema } from "./schema";
import { distanceToShape } from "./shape";

/**
 * Geofences whose shape comes within `radius` of `near`, nearest first. The spatial index
 * narrows the candidates to bounding boxes that meet the search circle's box; the exact
 * distance to each shape (0 inside it) decides.
 */
export function searchGeofences(key: AuthKey, q: z.output<typeof searchQuerySchema>) {
  const { latitude, longitude } = q.near;
  const candidates = geofencesInBox(key.live, bboxAround(longitude, latitude, q.radius), q.tags);
  const hits: { geofence: GeofenceRecord; distance: number }[] = [];
  for (const g of candidates) {
    const distance = distanceToShape(longitude, latitude, { ...g, ring: ringOf(g) });
    if (distance <= q.radius) hits.push({ geofence: g, distance: Math.round(distance * 10) / 10 });
  }
  hits.sort((a, b) => a.distance - b.distance || (a.geofence.id < b.geofence.id ? -1 : 1));
  return hits.slice(0, q.limit);
}
