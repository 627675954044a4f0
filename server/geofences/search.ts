import type { z } from "zod";
import type { AuthKey } from "../auth/keys";
import { bboxAround, haversine } from "../geo/distance";
import { NEARBY, type searchQuerySchema, serializeGeofence } from "./schema";
import { activeFor } from "./active";
import { decodedOnce } from "./decoded";
import { distanceToShape } from "./shape";
import { processOnce } from "../process-once";
import type { GeofenceBox, TrackedGeofence } from "../storage/geofences";
import { storage } from "../storage";
import { metadataMatches } from "../storage/metadata-filter";

/** The most candidates decoded at a time while refining them (a few more than `limit`). */
const BATCH = 64;

interface Candidate {
  seq: number;
  version: number;
  /** a lower bound of the distance to the shape: the distance to its box */
  low: number;
}

const byDistance = (a: Hit, b: Hit) =>
  a.distance - b.distance || (a.geofence.id < b.geofence.id ? -1 : a.geofence.id > b.geofence.id ? 1 : 0);

/** The first reach of a search, in meters: dense areas fill the results from there. */
const FIRST_REACH = 250;
/** Geofences outside the box of a reach are at least this share of the reach away. */
const SURE = 0.99;

type SearchQuery = Omit<z.output<typeof searchQuerySchema>, "includeGeometry"> & {
  /** only the geofences this keeps count (a track's nearbyGeofences: those active for the user) */
  keep?: (g: TrackedGeofence) => boolean;
};

/**
 * Geofences whose shape comes within `radius` of `near`, nearest first.
 *
 * Nearest first by widening reach: the search looks within a quarter kilometre first, then
 * twice as far, and so on up to `radius`, and stops as soon as `limit` results lie within the
 * reach looked at (nothing outside can come before them). The candidates come from the process's
 * index of geofences (their boxes, in memory, brought up to date with the database at each
 * search); they are decoded (once per version, server/geofences/decoded.ts) in order of the
 * distance to their box, and only while they can still make the first `limit` results.
 *
 * Only enabled geofences are found: a disabled one makes no events, and the SDKs register what
 * a search or a track's `nearbyGeofences` gives them as geofences of the device's own.
 */
export async function searchGeofences(
  key: AuthKey,
  q: SearchQuery,
): Promise<{ geofence: TrackedGeofence; distance: number }[]> {
  const { latitude: lat, longitude: lng } = q.near;
  let top: Hit[];
  // Distances already computed at a shorter reach (null: not counted), by seq.
  const known = new Map<number, Hit | null>();
  for (let reach = Math.min(q.radius, FIRST_REACH); ; reach = Math.min(q.radius, reach * 2)) {
    const hits = await nearestWithin(key.live, q, lng, lat, reach, known);
    top = hits.slice(0, q.limit);
    if (reach >= q.radius) break;
    if (top.length === q.limit && top[q.limit - 1]!.distance <= reach * SURE) break;
  }
  return top;
}

interface Hit {
  distance: number;
  geofence: TrackedGeofence;
}

/**
 * The geofences whose box meets the box of `reach` around the point and whose shape is within
 * `q.radius`, nearest first (at least the first `q.limit` of them are right).
 */
async function nearestWithin(
  live: boolean,
  q: SearchQuery,
  lng: number,
  lat: number,
  reach: number,
  known: Map<number, Hit | null>,
): Promise<Hit[]> {
  const boxes = await storage().geofences.inBox(live, bboxAround(lng, lat, reach), {
    tags: q.tags,
    enabledOnly: true,
  });
  const candidates: Candidate[] = boxes.map((b) => ({
    seq: b.seq,
    version: b.version,
    low: distanceToBox(lng, lat, b),
  }));
  candidates.sort((a, b) => a.low - b.low);

  const hits: Hit[] = [];
  const size = Math.min(BATCH, q.limit + 8);
  const cutoff = () => (hits.length >= q.limit ? Math.min(q.radius, hits[q.limit - 1]!.distance) : q.radius);
  for (let i = 0; i < candidates.length && candidates[i]!.low <= cutoff();) {
    const batch: Candidate[] = [];
    for (; i < candidates.length && batch.length < size && candidates[i]!.low <= cutoff(); i++)
      batch.push(candidates[i]!);
    const unknown = batch.filter((c) => !known.has(c.seq));
    for (const g of await decodedOnce(unknown, (seqs) => storage().geofences.decodable(seqs))) {
      const counted =
        g.enabled &&
        (!q.metadataFilter || metadataMatches(g.metadata, q.metadataFilter)) &&
        (!q.keep || q.keep(g));
      const distance = distanceToShape(lng, lat, g);
      known.set(g.seq, counted ? { distance: Math.round(distance * 10) / 10, geofence: g } : null);
    }
    for (const c of batch) {
      const hit = known.get(c.seq);
      if (hit && hit.distance <= q.radius) hits.push(hit);
    }
    hits.sort(byDistance);
  }
  return hits;
}

/**
 * Meters from a point to the nearest point of a box (0 inside it), a little less than exact: a
 * lower bound of the distance to any shape inside the box.
 */
function distanceToBox(lng: number, lat: number, b: GeofenceBox): number {
  const nearLng = Math.min(b.maxLng, Math.max(b.minLng, lng));
  const nearLat = Math.min(b.maxLat, Math.max(b.minLat, lat));
  if (nearLng === lng && nearLat === lat) return 0;
  return Math.max(0, 0.995 * haversine(lng, lat, nearLng, nearLat) - 1);
}

/**
 * What a track answers as `nearbyGeofences` when the device asks (the SDKs' geofence sync): the
 * nearest geofences of the key's world within NEARBY.radius of the location that are active for
 * the user (enabled, not expired, naming no other users), nearest first, each with its geometry
 * (the SDKs register circles by geometryCenter and geometryRadius, polygons by their ring),
 * already written as JSON (an array): every update of a device asks, and the same geofences are
 * answered again and again. Asked on the tracking thread with the update (server/tracking/worker.ts).
 */
export async function nearbyGeofences(
  key: AuthKey,
  at: { latitude: number; longitude: number },
  limit: number,
  userId: string | null,
): Promise<string> {
  const now = new Date();
  const hits = await searchGeofences(key, {
    near: at,
    radius: NEARBY.radius,
    tags: undefined,
    limit,
    keep: (g) => activeFor(g, userId, now),
  });
  const withUserIds = key.kind !== "publishable";
  return `[${hits.map(({ geofence }) => writtenOnce(geofence, { withUserIds })).join(",")}]`;
}

/**
 * A geofence's JSON as searches answer it, written once per decoded version (decoded geofences
 * are shared and never changed; a new version is a new object) and per form: with or without its
 * geometry, for a publishable key (no userIds) or not.
 */
export function writtenOnce(
  g: TrackedGeofence,
  { withUserIds, includeGeometry = true }: { withUserIds: boolean; includeGeometry?: boolean },
): string {
  const written = processOnce("geofence-json", () => new WeakMap<TrackedGeofence, (string | undefined)[]>());
  let forms = written.get(g);
  if (!forms) written.set(g, (forms = []));
  const k = (withUserIds ? 1 : 0) + (includeGeometry ? 2 : 0);
  return (forms[k] ??= JSON.stringify(serializeGeofence(g, { withUserIds, includeGeometry })));
}
