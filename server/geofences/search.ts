import type { z } from "zod";
import type { AuthKey } from "../auth/keys";
import { bboxAround, haversine } from "../geo/distance";
import { NEARBY, SEARCH, type searchQuerySchema, serializeGeofence } from "./schema";
import { activeFor } from "./active";
import { decodedOnce } from "./decoded";
import { distanceToShape } from "./shape";
import { type GeofenceBounds, type TrackedGeofence, storage } from "../storage";

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
 *
 * Only enabled geofences are found: a disabled one makes no events, and the SDKs register what
 * a search or a track's `nearbyGeofences` gives them as geofences of the device's own.
 */
export async function searchGeofences(
  key: AuthKey,
  q: Omit<z.output<typeof searchQuerySchema>, "includeGeometry">,
): Promise<{ geofence: TrackedGeofence; distance: number }[]> {
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
  // The results as decoded for the distances: read again only for versions not seen before.
  const found = new Map(
    (await decodedOnce(top, (seqs) => storage().geofences.decodable(seqs))).map((g) => [g.seq, g]),
  );
  return top.flatMap((h) => {
    const geofence = found.get(h.seq);
    return geofence ? [{ geofence, distance: h.distance }] : [];
  });
}

interface Hit {
  seq: number;
  version: number;
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
  q: Omit<z.output<typeof searchQuerySchema>, "includeGeometry">,
  lng: number,
  lat: number,
  reach: number,
  known: Map<number, number>,
): Promise<Hit[]> {
  const bounds = await storage().geofences.boundsInBox(live, bboxAround(lng, lat, reach), {
    tags: q.tags,
    enabledOnly: true,
    metadata: q.metadataFilter,
  });
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
    const rings = new Map(
      (
        await decodedOnce(
          batch.filter((c) => !c.exact && !known.has(c.seq)),
          (seqs) => storage().geofences.decodable(seqs),
        )
      ).map((g) => [g.seq, g.ring]),
    );
    for (const c of batch) {
      const distance = c.exact
        ? c.low
        : (known.get(c.seq) ?? distanceToShape(lng, lat, { ...c, ring: rings.get(c.seq) ?? [] }));
      known.set(c.seq, distance);
      if (distance <= q.radius) {
        hits.push({ seq: c.seq, version: c.version, id: c.id, distance: Math.round(distance * 10) / 10 });
      }
    }
    hits.sort(byDistance);
  }
  return hits;
}

/**
 * What a track answers as `nearbyGeofences` when the device asks (the SDKs' geofence sync): the
 * nearest enabled geofences of the key's world within NEARBY.radius of the location, nearest
 * first, each with its geometry (the SDKs register circles by geometryCenter and
 * geometryRadius, polygons by their ring). Geofences that name other users (`userIds`) are left
 * out: they would make no events for this device.
 */
export async function nearbyGeofences(
  key: AuthKey,
  at: { latitude: number; longitude: number },
  limit: number,
  userId: string | null,
) {
  const hits = await searchGeofences(key, {
    near: at,
    radius: NEARBY.radius,
    tags: undefined,
    limit: Math.min(limit + NEARBY_SLACK, SEARCH.limit.max),
  });
  const now = new Date();
  return hits
    .filter(({ geofence }) => activeFor(geofence, userId, now))
    .slice(0, limit)
    .map(({ geofence }) => serializeGeofence(geofence, { withUserIds: key.kind !== "publishable" }));
}

/** How many more geofences nearby asks the search for, in case some name other users. */
const NEARBY_SLACK = 50;
