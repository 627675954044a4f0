import { type StoredPlace } from "./feature-records";
import { features } from "./features";
import { bboxAround, haversine } from "../geo/distance";
import { distanceToRing, ringAreaAndCentroid } from "../geo/polygon";
import { positionsOf } from "../geo/rings";
import { imports } from "../bundles/folder";

/** Places from the imports (docs/data.md#places): search, detection, lookup by id. */

export interface PlaceHit {
  place: StoredPlace;
  /** meters from the point to the place's location */
  distance: number;
}

/** The wire form (wire contract: _id, name, location, categories, chain, group). */
export function serializePlace(p: StoredPlace) {
  return {
    _id: p.oid,
    name: p.name,
    location: { type: "Point", coordinates: [p.lng, p.lat] },
    categories: p.categories,
    ...(p.chain && { chain: p.chain }),
    ...(p.group && { group: p.group }),
  };
}
export type WirePlace = ReturnType<typeof serializePlace>;

export interface PlaceFilter {
  chains?: string[];
  categories?: string[];
  groups?: string[];
}

function matches(p: StoredPlace, f: PlaceFilter): boolean {
  if (f.chains?.length && !(p.chain && f.chains.includes(p.chain.slug))) return false;
  if (f.categories?.length && !p.categories.some((c) => f.categories!.includes(c))) return false;
  if (f.groups?.length && !(p.group && f.groups.includes(p.group))) return false;
  return true;
}

/** Places (across imports, once each) whose location lies within `radius` meters. */
function within(lng: number, lat: number, radius: number, filter: PlaceFilter): PlaceHit[] {
  const box = bboxAround(lng, lat, radius);
  const seen = new Set<string>();
  const hits: PlaceHit[] = [];
  // The most selective filter picks the candidates from the tag index; all filters then apply.
  const tags = filter.chains?.length
    ? filter.chains.map((c) => `chain:${c}`)
    : filter.groups?.length
      ? filter.groups.map((g) => `group:${g}`)
      : filter.categories?.map((c) => `category:${c}`);
  for (const file of imports()) {
    for (const place of tags ? features(file).placesTaggedIn(box, tags) : features(file).placePointsIn(box)) {
      if (seen.has(place.oid) || !matches(place, filter)) continue;
      seen.add(place.oid);
      const distance = haversine(lng, lat, place.lng, place.lat);
      if (distance <= radius) hits.push({ place, distance });
    }
  }
  return hits;
}

/**
 * Place search: the nearest `limit` places within `radius`, sorted by distance. Looks in
 * growing circles (radius/16, /8, /4, /2, then radius) and stops as soon as one holds `limit` matches:
 * every place inside a circle is found, so those are the nearest. In a city with 100,000 places
 * this reads hundreds of rows instead of tens of thousands (docs/performance.md).
 */
export function searchPlaces(
  lng: number,
  lat: number,
  options: PlaceFilter & { radius: number; limit: number },
): PlaceHit[] {
  const { radius, limit } = options;
  for (const r of [radius / 16, radius / 8, radius / 4, radius / 2, radius]) {
    if (r < radius && r < 100) continue;
    const hits = within(lng, lat, r, options);
    if (hits.length >= limit || r === radius) {
      return hits
        .sort((a, b) => a.distance - b.distance || a.place.oid.localeCompare(b.place.oid))
        .slice(0, limit);
    }
  }
  return [];
}

export function placeById(oid: string): StoredPlace | undefined {
  for (const file of imports()) {
    const p = features(file).placeById(oid);
    if (p) return p;
  }
  return undefined;
}

/** Distance from a point to a place: to its outline for areas (0 inside), else to its point. */
export function distanceToPlace(lng: number, lat: number, p: StoredPlace): number {
  return p.ring ? distanceToRing(lng, lat, positionsOf(p.ring)) : haversine(lng, lat, p.lng, p.lat);
}

/** A place a device is near: how far, and how it ranks (lower is likelier). */
export interface PlaceCandidate extends PlaceHit {
  score: number;
}

/**
 * Places a point may be at, best first. Distance is to the place's outline for areas (0 inside),
 * to its location otherwise. An area the point is inside ranks as if it were a little away
 * (a tenth of its size, at most 25 m), so a shop mapped as a point inside a mall beats the mall.
 */
export function placeCandidates(lng: number, lat: number, reach: number): PlaceCandidate[] {
  const out: PlaceCandidate[] = [];
  const seen = new Set<string>();
  for (const file of imports()) {
    for (const place of features(file).placesIn(bboxAround(lng, lat, reach))) {
      if (seen.has(place.oid)) continue;
      seen.add(place.oid);
      const distance = distanceToPlace(lng, lat, place);
      const inside = place.ring && distance === 0;
      const score = inside
        ? Math.min(25, Math.sqrt(ringAreaAndCentroid(positionsOf(place.ring!)).area) / 10)
        : distance;
      if (distance <= reach) out.push({ place, distance: Math.round(distance * 10) / 10, score });
    }
  }
  return out.sort((a, b) => a.score - b.score || a.place.oid.localeCompare(b.place.oid));
}

/** How near a coordinate must be to a place for context to say it is there. */
export const CONTEXT_PLACE_REACH_M = 50;

/** The place a coordinate is at (inside, or within 50 m), for context. */
export function placeAt(lng: number, lat: number): StoredPlace | undefined {
  return placeCandidates(lng, lat, CONTEXT_PLACE_REACH_M)[0]?.place;
}
