import L from "leaflet";
import type { Geofence } from "@/lib/types";

/** The API's shape fields for a drawn or edited layer. */
export type DraftShape =
  | { type: "circle"; coordinates: [number, number]; radius: number }
  | { type: "polygon"; coordinates: [number, number][] };

export function shapeOf(layer: L.Circle | L.Polygon): DraftShape {
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

/** A Leaflet layer for a stored geofence (for editing and for bounds). */
export function toLayer(g: Geofence): L.Circle | L.Polygon {
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
