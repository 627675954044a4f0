/**
 * Positions are `[longitude, latitude]` everywhere in the code (GeoJSON's order, as geofences
 * and the server keep them). Only two edges differ: the API's `"lat,lng"` text and Leaflet's
 * `[lat, lng]`; these are the only conversions to them.
 */
export type LngLat = [lng: number, lat: number];

/** The API's `"lat,lng"` text of a position (`digits` decimals when given). */
export const latLngText = ([lng, lat]: LngLat, digits?: number) =>
  digits === undefined ? `${lat},${lng}` : `${lat.toFixed(digits)},${lng.toFixed(digits)}`;

/** A position from the API's `"lat,lng"` text, or null when it is not two finite numbers. */
export function parseLatLngText(text: string): LngLat | null {
  const parts = text.split(",").map((v) => Number(v.trim()));
  if (parts.length !== 2 || !parts.every(Number.isFinite)) return null;
  return [parts[1]!, parts[0]!];
}

/** Leaflet's `[lat, lng]` of a position. */
export const leafletPoint = ([lng, lat]: LngLat): [number, number] => [lat, lng];
