import L from "leaflet";
import type { Geofence } from "@/lib/types";

/** The API's shape fields for a drawn or edited layer. */
export type DraftShape =
  | { type: "circle"; coordinates: [number, number]; radius: number }
  | { type: "polygon"; coordinates: [number, number][] }
  | { type: "isochrone"; coordinates: [number, number]; radius: number; mode: string };

/** The marker of an isochrone's center while it is drawn or edited. */
export const centerIcon = L.divIcon({
  className: "",
  html: '<div class="h-4 w-4 rounded-full border-2 border-white bg-violet-600 shadow" aria-label="Isochrone center"></div>',
  iconSize: [16, 16],
  iconAnchor: [8, 8],
});

/** A layer being drawn or edited: a circle, a polygon, or an isochrone's center. */
export type DraftLayer = L.Circle | L.Polygon | L.Marker;

/** What an isochrone is drawn for: minutes of travel and the mode (the form's fields). */
export interface Reach {
  minutes: number;
  mode: string;
}

export function shapeOf(layer: DraftLayer, reach?: Reach): DraftShape {
  if (layer instanceof L.Marker) {
    const c = layer.getLatLng();
    return {
      type: "isochrone",
      coordinates: [c.lng, c.lat],
      radius: reach?.minutes ?? 10,
      mode: reach?.mode ?? "car",
    };
  }
  if (layer instanceof L.Circle) {
    const c = layer.getLatLng();
    return { type: "circle", coordinates: [c.lng, c.lat], radius: Math.round(layer.getRadius()) };
  }
  const latLngs = layer.getLatLngs() as L.LatLng[][];
  const ring = (latLngs[0] ?? []).map((p) => [p.lng, p.lat] as [number, number]);
  // GeoJSON rings are closed: the first position again at the end.
  if (ring.length) ring.push(ring[0]!);
  return { type: "polygon", coordinates: ring };
}

/** A Leaflet layer for editing a stored geofence (an isochrone: its center, to move). */
export function toLayer(g: Geofence): DraftLayer {
  if (g.type === "isochrone") {
    const [lng, lat] = g.geometryCenter.coordinates;
    return L.marker([lat, lng], { icon: centerIcon, draggable: true });
  }
  if (g.type === "circle") {
    const [lng, lat] = g.geometryCenter.coordinates;
    return L.circle([lat, lng], { radius: g.geometryRadius });
  }
  const ring = (g.geometry?.coordinates[0] ?? []).slice(0, -1).map(([lng, lat]) => L.latLng(lat, lng));
  return L.polygon(ring);
}

/** A geofence's bounds, without a map (a Leaflet circle needs one for its own). */
export function boundsOf(g: Geofence): L.LatLngBounds {
  if (g.type === "circle") {
    const [lng, lat] = g.geometryCenter.coordinates;
    return L.latLng(lat, lng).toBounds(g.geometryRadius * 2);
  }
  return L.polygon((g.geometry?.coordinates[0] ?? []).map(([lng, lat]) => L.latLng(lat, lng))).getBounds();
}
