/** Positions at a given distance from a base point, for tests that place things in meters. */

const M_PER_DEG_LAT = 111_194.9;

export function metersFrom(base: { lat: number; lng: number }) {
  const kx = M_PER_DEG_LAT * Math.cos((base.lat * Math.PI) / 180);
  return {
    /** latitude `m` meters north of base (negative: south) */
    north: (m: number) => base.lat + m / M_PER_DEG_LAT,
    /** longitude `m` meters east of base (negative: west) */
    east: (m: number) => base.lng + m / kx,
  };
}
