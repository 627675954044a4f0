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

/** About 42 km x 55 km around New York City. */
export const AREA = { minLat: 40.5, maxLat: 41.0, minLng: -74.2, maxLng: -73.7 };

export function randomPoint(r: () => number): [lng: number, lat: number] {
  return [AREA.minLng + r() * (AREA.maxLng - AREA.minLng), AREA.minLat + r() * (AREA.maxLat - AREA.minLat)];
}

export function geofenceBody(i: number, r: () => number): Record<string, unknown> {
  const [lng, lat] = randomPoint(r);
  const radius = 50 + r() * 450;
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
