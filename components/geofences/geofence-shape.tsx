"use client";

import { Circle, Polygon } from "react-leaflet";
import type { Geofence } from "@/lib/types";
import { tagColor } from "../map/colors";

/** A geofence on the map, coloured by tag; dashed when disabled, thicker when selected. */
export function GeofenceShape({
  g,
  selected,
  onClick,
}: {
  g: Geofence;
  selected: boolean;
  onClick: () => void;
}) {
  const color = tagColor(g.tag);
  const style = {
    color,
    weight: selected ? 4 : 2,
    fillOpacity: g.enabled ? 0.2 : 0.05,
    dashArray: g.enabled ? undefined : "4 4",
  };
  const handlers = { click: onClick };
  const name = `${g.description}${g.tag ? ` (${g.tag}/${g.externalId ?? ""})` : ""}`;
  if (g.type === "circle") {
    return (
      <Circle
        center={[g.geometryCenter.coordinates[1], g.geometryCenter.coordinates[0]]}
        radius={g.geometryRadius}
        pathOptions={style}
        eventHandlers={handlers}
        pmIgnore
        // for people and tests: the shape's name
        {...{ title: name }}
      />
    );
  }
  const ring = (g.geometry?.coordinates[0] ?? []).map(([lng, lat]) => [lat, lng] as [number, number]);
  return <Polygon positions={ring} pathOptions={style} eventHandlers={handlers} pmIgnore />;
}
