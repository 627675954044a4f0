/**
 * Encoded polylines (Google's format; precision 5 or 6 digits), as route geometry's `polyline5`
 * and `polyline6`. Written here rather than taken from @mapbox/polyline: that package brings 50
 * packages (a command-line tool's) for these fifteen lines.
 */

function encodeNumber(value: number): string {
  let v = value < 0 ? ~(value << 1) : value << 1;
  let out = "";
  while (v >= 0x20) {
    out += String.fromCharCode((0x20 | (v & 0x1f)) + 63);
    v >>= 5;
  }
  return out + String.fromCharCode(v + 63);
}

/** Positions `[lng, lat]` (GeoJSON order) as an encoded polyline (which is lat, lng). */
export function encodePolyline(positions: [number, number][], precision: 5 | 6): string {
  const factor = 10 ** precision;
  let lastLat = 0;
  let lastLng = 0;
  let out = "";
  for (const [lng, lat] of positions) {
    const la = Math.round(lat * factor);
    const ln = Math.round(lng * factor);
    out += encodeNumber(la - lastLat) + encodeNumber(ln - lastLng);
    lastLat = la;
    lastLng = ln;
  }
  return out;
}
