import type { LngLat } from "./position";

/**
 * A GPS trace from a file the dashboard is given to match (GPX or CSV): its points in order,
 * each `[longitude, latitude]` with its accuracy in meters when the file says it. A file that
 * holds none is an error saying what was expected.
 */

export interface TraceFix {
  at: LngLat;
  accuracy?: number;
}

const number = (v: string | undefined) => (v === undefined || v.trim() === "" ? NaN : Number(v));
const valid = ([lng, lat]: LngLat) =>
  Number.isFinite(lng) && Number.isFinite(lat) && Math.abs(lat) <= 90 && Math.abs(lng) <= 180;

/** The track points of a GPX file (`trkpt`, else `rtept`), their `hdop` × 5 m as accuracy. */
function gpxFixes(text: string): TraceFix[] {
  const points = [...text.matchAll(/<(trkpt|rtept)\b([^>]*?)(\/>|>([\s\S]*?)<\/\1>)/g)];
  return points.flatMap((m) => {
    const attrs = m[2] ?? "";
    const at: LngLat = [
      number(/\blon="([^"]*)"/.exec(attrs)?.[1]),
      number(/\blat="([^"]*)"/.exec(attrs)?.[1]),
    ];
    const hdop = number(/<hdop>([^<]*)<\/hdop>/.exec(m[4] ?? "")?.[1]);
    return valid(at) ? [{ at, ...(Number.isFinite(hdop) && { accuracy: Math.max(5, hdop * 5) }) }] : [];
  });
}

/** The rows of a CSV file: columns named latitude/lat, longitude/lng/lon (and accuracy), or "lat,lng" rows. */
function csvFixes(text: string): TraceFix[] {
  const rows = text
    .split(/\r?\n/)
    .map((l) => l.split(/[,;\t]/).map((c) => c.trim().replace(/^"|"$/g, "")))
    .filter((r) => r.some((c) => c !== ""));
  if (!rows.length) return [];
  const header = rows[0]!.map((c) => c.toLowerCase());
  const col = (...names: string[]) => header.findIndex((h) => names.includes(h));
  const [lat, lng, acc] = [col("latitude", "lat"), col("longitude", "lng", "lon"), col("accuracy", "hacc")];
  const named = lat >= 0 && lng >= 0;
  return rows.slice(named ? 1 : 0).flatMap((r) => {
    const at: LngLat = named ? [number(r[lng]), number(r[lat])] : [number(r[1]), number(r[0])];
    const accuracy = named && acc >= 0 ? number(r[acc]) : NaN;
    return valid(at) ? [{ at, ...(Number.isFinite(accuracy) && accuracy > 0 && { accuracy }) }] : [];
  });
}

/** The fixes of a GPX or CSV file (by its name, else by its content). */
export function traceFixes(name: string, text: string): TraceFix[] {
  const gpx = /\.gpx$/i.test(name) || /<gpx\b/.test(text);
  const fixes = gpx ? gpxFixes(text) : csvFixes(text);
  if (fixes.length < 2) {
    throw new Error(
      gpx
        ? "the GPX file holds fewer than 2 track points (<trkpt lat=… lon=…>)"
        : "the CSV file holds fewer than 2 points (columns latitude and longitude, or rows 'lat,lng')",
    );
  }
  return fixes;
}
