"use client";

import type L from "leaflet";
import { useEffect, useRef } from "react";
import { useMap } from "react-leaflet";
import { centerIcon } from "../map/shapes";

/**
 * Geoman's drawing tools: a polygon, a circle, or a point to draw an isochrone (the area
 * reachable from it) around, handed over as a draft once finished.
 */
export function DrawControls({
  onCreate,
  disabled,
}: {
  onCreate: (l: L.Circle | L.Polygon | L.Marker) => void;
  disabled: boolean;
}) {
  const map = useMap();
  const onCreateRef = useRef(onCreate);
  useEffect(() => {
    onCreateRef.current = onCreate;
  });
  useEffect(() => {
    const created = (e: { layer: L.Layer }) => {
      const layer = e.layer as L.Circle | L.Polygon | L.Marker;
      // One shape per draft (Geoman keeps placing markers otherwise).
      map.pm.disableDraw();
      layer.pm.enable({ allowSelfIntersection: true });
      onCreateRef.current(layer);
    };
    map.on("pm:create", created);
    return () => void map.off("pm:create", created);
  }, [map]);
  useEffect(() => {
    // While a shape is being saved or edited, the drawing tools are put away.
    if (disabled) return;
    map.pm.addControls({
      position: "topleft",
      drawMarker: true,
      drawCircleMarker: false,
      drawPolyline: false,
      drawRectangle: false,
      drawText: false,
      editMode: false,
      dragMode: false,
      cutPolygon: false,
      removalMode: false,
      rotateMode: false,
    });
    map.pm.setGlobalOptions({
      allowSelfIntersection: true,
      snappable: false,
      markerStyle: { icon: centerIcon },
    });
    map.pm.setLang("en", { buttonTitles: { drawMarkerButton: "Draw Isochrone (reachable area)" } }, "en");
    // Geoman titles the wrapper, not the button: give the buttons their names.
    for (const wrapper of map.getContainer().querySelectorAll<HTMLElement>(".leaflet-pm-toolbar [title]")) {
      wrapper.querySelector("[role=button]")?.setAttribute("aria-label", wrapper.title);
    }
    return () => map.pm.removeControls();
  }, [map, disabled]);
  return null;
}
