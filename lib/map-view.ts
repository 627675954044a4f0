/**
 * The dashboard map's view as the server and the address see it. Positions are [lng, lat].
 */

export interface Box {
  south: number;
  west: number;
  north: number;
  east: number;
}

const clampLat = (lat: number) => Math.max(-90, Math.min(90, lat));
/** A longitude brought into [-180, 180] (Leaflet's views run past ±180 when panned round). */
const wrapLng = (lng: number) => ((((lng + 180) % 360) + 360) % 360) - 180;

/**
 * The `bounds` parameter for a view, padded by a quarter on each side and rounded outward to a
 * step of about a tenth of its size, so small pans ask the same question (and hit the cache).
 * A view wider than the world is the whole world; one across ±180° comes out with west > east.
 */
export function boundsParam(view: Box): string {
  const padLat = (view.north - view.south) / 4;
  const padLng = (view.east - view.west) / 4;
  const span = Math.max(view.north - view.south, view.east - view.west, 1e-4);
  const step = 10 ** Math.floor(Math.log10(span / 10));
  const down = (v: number) => Number((Math.floor(v / step) * step).toFixed(6));
  const up = (v: number) => Number((Math.ceil(v / step) * step).toFixed(6));
  const south = clampLat(down(view.south - padLat));
  const north = clampLat(up(view.north + padLat));
  let west = down(view.west - padLng);
  let east = up(view.east + padLng);
  if (east - west >= 360) [west, east] = [-180, 180];
  else [west, east] = [wrapLng(west), wrapLng(east)].map((v) => Number(v.toFixed(6))) as [number, number];
  if (east === -180) east = 180;
  return `${south},${west}|${north},${east}`;
}

/** "lat,lng,zoom" from the address, or undefined when it is not one. */
export function parseView(text: string | null): { center: [number, number]; zoom: number } | undefined {
  const parts = (text ?? "").split(",").map(Number);
  if (parts.length !== 3 || parts.some((n) => !Number.isFinite(n))) return undefined;
  const [lat, lng, zoom] = parts as [number, number, number];
  if (Math.abs(lat) > 90 || Math.abs(lng) > 180 || zoom < 0 || zoom > 22) return undefined;
  return { center: [lng, lat], zoom };
}

export const formatView = ([lng, lat]: [number, number], zoom: number) =>
  `${lat.toFixed(5)},${lng.toFixed(5)},${zoom}`;

/**
 * Where the map should open: the box of the largest group of these positions (those within
 * `reach` degrees of one of them), so data on two continents opens on the busier one rather
 * than on the whole world. Earlier positions win ties (pass the newest first).
 */
export function busiestArea(points: [number, number][], reach = 2): Box | undefined {
  let best: [number, number][] = [];
  for (const [lng, lat] of points) {
    const near = points.filter(([x, y]) => Math.abs(y - lat) <= reach && Math.abs(wrapLng(x - lng)) <= reach);
    if (near.length > best.length) best = near;
  }
  if (best.length === 0) return undefined;
  const lats = best.map((p) => p[1]);
  const lngs = best.map((p) => p[0]);
  return {
    south: Math.min(...lats),
    north: Math.max(...lats),
    west: Math.min(...lngs),
    east: Math.max(...lngs),
  };
}
