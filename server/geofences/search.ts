import type { z } from "zod";
import type { AuthKey } from "../auth/keys";
import {
  type GeofenceBounds,
  geofenceBoundsInBox,
  geofenceRings,
  geofencesBySeq,
} from "../db/sqlite/geofences";
import { bboxAround, haversine } from "../geo/distance";
import type { GeofenceRecord, searchQuerySchema } from "./schema";
import { distanceToShape } from "./shape";

/** How many polygon rings to read per query while refining candidates. */
const BATCH = 64;

interface Candidate extends GeofenceBounds {
  /** a lower bound of the distance to the shape; exact for circles */
  low: number;
  exact: boolean;
}

const byDistance = (a: { distance: number; id: string }, b: { distance: number; id: string }) =>
  a.distance - b.distance || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * Geofences whose shape comes within `radius` of `near`, nearest first.
 *
 * The R*Tree narrows the candidates to bounding boxes that meet the search circle's box. A
 * circle's distance is exact from its center and radius; a polygon's is at least its center
 * distance minus its radius, so candidates are refined in order of that bound and polygon rings
 * are read only while they can still make the first `limit` results.
 */
export function searchGeofences(
  key: AuthKey,
  q: z.output<typeof searchQuerySchema>,
): { geofence: GeofenceRecord; distance: number }[] {
  const { latitude: lat, longitude: lng } = q.near;
  const candidates: Candidate[] = geofenceBoundsInBox(key.live, bboxAround(lng, lat, q.radius), q.tags).map(
    (c) => {
      const center = haversine(lng, lat, c.centerLng, c.centerLat);
      return { ...c, low: Math.max(0, center - c.radius), exact: c.type === "circle" };
    },
  );
  candidates.sort((a, b) => a.low - b.low);

  const hits: { seq: number; id: string; distance: number }[] = [];
  const cutoff = () => (hits.length >= q.limit ? Math.min(q.radius, hits[q.limit - 1]!.distance) : q.radius);
  for (let i = 0; i < candidates.length && candidates[i]!.low <= cutoff();) {
    const batch: Candidate[] = [];
    for (; i < candidates.length && batch.length < BATCH && candidates[i]!.low <= cutoff(); i++)
      batch.push(candidates[i]!);
    const rings = geofenceRings(batch.filter((c) => !c.exact).map((c) => c.seq));
    for (const c of batch) {
      const distance = c.exact ? c.low : distanceToShape(lng, lat, { ...c, ring: rings.get(c.seq) ?? [] });
      if (distance <= q.radius) hits.push({ seq: c.seq, id: c.id, distance: Math.round(distance * 10) / 10 });
    }
    hits.sort(byDistance);
  }

  const top = hits.slice(0, q.limit);
  const records = geofencesBySeq(
    top.map((h) => h.seq),
    q.includeGeometry,
  );
  const distance = new Map(top.map((h) => [h.seq, h.distance]));
  return records.map((geofence) => ({ geofence, distance: distance.get(geofence.seq)! }));
}
