"use client";

import "leaflet/dist/leaflet.css";
import { useQuery } from "@tanstack/react-query";
import L from "leaflet";
import { useEffect } from "react";
import { Circle, CircleMarker, MapContainer, Polygon, Tooltip, useMap } from "react-leaflet";
import { call } from "@/lib/api-client";
import type { Geofence, LocationEvent } from "@/lib/types";
import { Basemap, MAX_ZOOM, type TileConfig } from "../map/basemap";
import { tagColor } from "../map/colors";
import { boundsOf } from "../map/shapes";

/**
 * An event on a small map: the user's accuracy circle and the geofence it is about, or the place
 * (amber) and the alternatives (grey) of a place event.
 */
export default function EventMap({ event, tiles }: { event: LocationEvent; tiles: TileConfig }) {
  const geofence = useQuery({
    queryKey: ["geofence", event.geofence?._id],
    enabled: !!event.geofence,
    queryFn: () =>
      call<{ geofence: Geofence }>("GET", `/v1/geofences/${event.geofence!._id}`).then((r) => r.geofence),
    retry: false,
  });
  const [lng, lat] = event.location.coordinates;
  const g = geofence.data;
  return (
    <div role="region" aria-label="Event location">
      <MapContainer center={[lat, lng]} zoom={16} maxZoom={MAX_ZOOM} className="h-72 w-full rounded">
        <Basemap tiles={tiles} />
        {g?.type === "polygon" && (
          <Polygon
            positions={(g.geometry?.coordinates[0] ?? []).map(([x, y]) => [y, x] as [number, number])}
            pathOptions={{ color: tagColor(g.tag), weight: 2, fillOpacity: 0.15 }}
          />
        )}
        {g?.type === "circle" && (
          <Circle
            center={[g.geometryCenter.coordinates[1], g.geometryCenter.coordinates[0]]}
            radius={g.geometryRadius}
            pathOptions={{ color: tagColor(g.tag), weight: 2, fillOpacity: 0.15 }}
          />
        )}
        <Circle
          center={[lat, lng]}
          radius={event.locationAccuracy}
          pathOptions={{ color: "#2563eb", weight: 1, fillOpacity: 0.2 }}
        />
        <CircleMarker center={[lat, lng]} radius={4} pathOptions={{ color: "#1d4ed8", fillOpacity: 1 }} />
        {[event.place, ...(event.alternatePlaces ?? [])].map(
          (p, i) =>
            p && (
              <CircleMarker
                key={p._id}
                center={[p.location.coordinates[1], p.location.coordinates[0]]}
                radius={i === 0 ? 7 : 5}
                pathOptions={{ color: i === 0 ? "#b45309" : "#64748b", fillOpacity: 0.7 }}
              >
                <Tooltip permanent={i === 0} direction="top">
                  {p.name}
                </Tooltip>
              </CircleMarker>
            ),
        )}
        <Fit event={event} geofence={g} />
      </MapContainer>
      {event.geofence && geofence.isError && (
        <p className="mt-1 text-xs text-slate-500">
          The geofence has been deleted since; its shape cannot be shown.
        </p>
      )}
    </div>
  );
}

function Fit({ event, geofence }: { event: LocationEvent; geofence?: Geofence }) {
  const map = useMap();
  useEffect(() => {
    const [lng, lat] = event.location.coordinates;
    const bounds = L.latLng(lat, lng).toBounds(event.locationAccuracy * 2.5);
    if (geofence) bounds.extend(boundsOf(geofence));
    for (const p of [event.place, ...(event.alternatePlaces ?? [])]) {
      if (p) bounds.extend([p.location.coordinates[1], p.location.coordinates[0]]);
    }
    // Without animation: Leaflet ignores a new view asked for while it animates the last one.
    map.fitBounds(bounds, { maxZoom: 18, padding: [10, 10], animate: false });
  }, [map, event, geofence]);
  return null;
}
