/** Deterministic synthetic geofences: mixed circles and star-shaped polygons over a metro area. */

export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Area {
  minLat: number;
  maxLat: number;
  minLng: number;
  maxLng: number;
  /** geofences measure 50 m to this much from their centre (circles: radius) */
  maxRadius: number;
}

/** The sparse scenario: about 42 km x 55 km around New York City, geofences of 50–500 m. */
export const AREA: Area = { minLat: 40.5, maxLat: 41.0, minLng: -74.2, maxLng: -73.7, maxRadius: 500 };

/**
 * The dense scenario (`--dense`): 10,000 geofences packed into about 8.9 km x 8.9 km
 * (79 km²) of Manhattan and Brooklyn, "several per point, overlapping": with radii of 50–200 m,
 * a point lies in about 6 (`--max-radius 500` packs 50–500 m ones, about 30 at a point).
 */
export const DENSE_AREA: Area = {
  minLat: 40.72,
  maxLat: 40.8,
  minLng: -74.02,
  maxLng: -73.915,
  maxRadius: 200,
};

export function randomPoint(r: () => number, area: Area = AREA): [lng: number, lat: number] {
  return [area.minLng + r() * (area.maxLng - area.minLng), area.minLat + r() * (area.maxLat - area.minLat)];
}

export function geofenceBody(i: number, r: () => number, area: Area = AREA): Record<string, unknown> {
  const [lng, lat] = randomPoint(r, area);
  const radius = 50 + r() * (area.maxRadius - 50);
  const common = { description: `Bench geofence ${i}`, tag: `bench-${i % 10}`, externalId: String(i) };
  if (i % 2 === 0) return { ...common, type: "circle", coordinates: [lng, lat], radius: Math.round(radius) };
  const n = 8 + Math.floor(r() * 24);
  const ring: [number, number][] = [];
  for (let k = 0; k < n; k++) {
    const angle = (2 * Math.PI * k) / n;
    const d = radius * (0.6 + 0.4 * r());
    ring.push([
      lng + (d * Math.cos(angle)) / (111_195 * Math.cos((lat * Math.PI) / 180)),
      lat + (d * Math.sin(angle)) / 111_195,
    ]);
  }
  return { ...common, type: "polygon", coordinates: ring };
}
