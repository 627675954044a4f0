import type { z } from "zod";
import type { AuthKey } from "../auth/keys";
import { bboxAround, haversine } from "../geo/distance";
import type { GeofenceRecord, searchQuerySchema } from "./schema";
import { distanceToShape } from "./shape";
import { type GeofenceBounds, storage } from "../storage";

/** How many polygon rings to read per query while refining candidates. */
const BATCH = 64;

interface Candidate extends GeofenceBounds {
  /** a lower bound of the distance to the shape; exact for circles */
  low: number;
  exact: boolean;
}

const byDistance = (a: { distance: number; id: string }, b: { distance: number; id: string }) =>
  a.distance - b.distance || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** The first reach of a search, in meters: dense areas fill the results from there. */
const FIRST_REACH = 250;
/** Geofences outside the box of a reach are at least this share of the reach away. */
const SURE = 0.99;

/**
 * Geofences whose shape comes within `radius` of `near`, nearest first.
 *
 * Nearest first by widening reach: the search looks within a quarter kilometre first, then
 * twice as far, and so on up to `radius`, and stops as soon as `limit` results lie within the
 * reach looked at (nothing outside can come before them). Where geofences are dense the first
 * reach fills the answer and only its candidates are read; where they are sparse the reads add
 * up to about 1.3 times one read of the whole radius.
 */
export async function searchGeofences(
  key: AuthKey,
  q: z.output<typeof searchQuerySchema>,
): Promise<{ geofence: GeofenceRecord; distance: number }[]> {
  const { latitude: lat, longitude: lng } = q.near;
  let top: Hit[];
  // Exact distances already computed at a shorter reach: a wider reach does not read those rings again.
  const known = new Map<number, number>();
  for (let reach = Math.min(q.radius, FIRST_REACH); ; reach = Math.min(q.radius, reach * 2)) {
    const hits = await nearestWithin(key.live, q, lng, lat, reach, known);
    top = hits.slice(0, q.limit);
    if (reach >= q.radius) break;
    if (top.length === q.limit && top[q.limit - 1]!.distance <= reach * SURE) break;
  }
  const records = await storage().geofences.bySeqs(
    top.map((h) => h.seq),
    q.includeGeometry,
  );
  const distance = new Map(top.map((h) => [h.seq, h.distance]));
  return records.map((geofence) => ({ geofence, distance: distance.get(geofence.seq)! }));
}

interface Hit {
  seq: number;
  id: string;
  distance: number;
}

/**
 * The geofences whose box meets the box of `reach` around the point and whose shape is within
 * `q.radius`, nearest first (at least the first `q.limit` of them are right).
 *
 * The spatial index narrows the candidates to bounding boxes that meet the box. A circle's distance is
 * exact from its center and radius; a polygon's is at least its center distance minus its
 * radius, so candidates are refined in order of that bound and polygon rings are read only
 * while they can still make the first `limit` results.
 */
async function nearestWithin(
  live: boolean,
  q: z.output<typeof searchQuerySchema>,
  lng: number,
  lat: number,
  reach: number,
  known: Map<number, number>,
): Promise<Hit[]> {
  const bounds = await storage().geofences.boundsInBox(live, bboxAround(lng, lat, reach), q.tags);
  const candidates: Candidate[] = bounds.map((c) => {
    const center = haversine(lng, lat, c.centerLng, c.centerLat);
    return { ...c, low: Math.max(0, center - c.radius), exact: c.type === "circle" };
  });
  candidates.sort((a, b) => a.low - b.low);

  const hits: Hit[] = [];
  const cutoff = () => (hits.length >= q.limit ? Math.min(q.radius, hits[q.limit - 1]!.distance) : q.radius);
  for (let i = 0; i < candidates.length && candidates[i]!.low <= cutoff();) {
    const batch: Candidate[] = [];
    for (; i < candidates.length && batch.length < BATCH && candidates[i]!.low <= cutoff(); i++)
      batch.push(candidates[i]!);
    const rings = await storage().geofences.rings(
      batch.filter((c) => !c.exact && !known.has(c.seq)).map((c) => c.seq),
    );
    for (const c of batch) {
      const distance = c.exact
        ? c.low
        : (known.get(c.seq) ?? distanceToShape(lng, lat, { ...c, ring: rings.get(c.seq) ?? [] }));
      known.set(c.seq, distance);
      if (distance <= q.radius) hits.push({ seq: c.seq, id: c.id, distance: Math.round(distance * 10) / 10 });
    }
    hits.sort(byDistance);
  }
  return hits;
}
