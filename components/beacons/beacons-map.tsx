"use client";

import "leaflet/dist/leaflet.css";
import { useEffect } from "react";
import { CircleMarker, MapContainer, Tooltip, useMap, useMapEvents } from "react-leaflet";
import L from "../map/leaflet-global";
import { Basemap, MAX_ZOOM, type TileConfig } from "../map/basemap";
import type { Beacon } from "./types";

const BEACON = "#0f766e";
const OFF = "#94a3b8";
const PICKED = "#b45309";

const latLng = ([lng, lat]: [number, number]) => [lat, lng] as [number, number];

/**
 * The beacons on the map (disabled ones grey); a click on one opens it, a click elsewhere puts the
 * form's position there ([lng, lat]).
 */
export default function BeaconsMap(props: {
  beacons: Beacon[];
  open: string | null;
  picked: [number, number] | null;
  onOpen: (id: string) => void;
  onPick: (position: [number, number]) => void;
  tiles: TileConfig;
}) {
  return (
    <MapContainer center={[20, 0]} zoom={2} maxZoom={MAX_ZOOM} className="h-full min-h-80 w-full">
      <Basemap tiles={props.tiles} />
      {props.beacons.map((b) => (
        <CircleMarker
          key={b._id}
          center={latLng(b.geometry.coordinates)}
          radius={b._id === props.open ? 9 : 6}
          pathOptions={{ color: b.enabled ? BEACON : OFF, fillOpacity: 0.7 }}
          eventHandlers={{ click: () => props.onOpen(b._id) }}
        >
          <Tooltip>{b.description}</Tooltip>
        </CircleMarker>
      ))}
      {props.picked && (
        <CircleMarker
          center={latLng(props.picked)}
          radius={7}
          pathOptions={{ color: PICKED, dashArray: "3" }}
        >
          <Tooltip>The new position</Tooltip>
        </CircleMarker>
      )}
      <Picker onPick={props.onPick} />
      <Fit beacons={props.beacons} />
    </MapContainer>
  );
}

function Picker({ onPick }: { onPick: (position: [number, number]) => void }) {
  useMapEvents({ click: (e) => onPick([round(e.latlng.lng), round(e.latlng.lat)]) });
  return null;
}

const round = (v: number) => Math.round(v * 1e6) / 1e6;

/** Fits the view to the beacons once they are first known. */
function Fit({ beacons }: { beacons: Beacon[] }) {
  const map = useMap();
  const known = beacons.length > 0;
  useEffect(() => {
    if (!known) return;
    const bounds = L.latLngBounds(beacons.map((b) => latLng(b.geometry.coordinates)));
    map.fitBounds(bounds.pad(0.3), { maxZoom: 17 });
    // Only when the beacons first arrive: later changes leave the view where the person put it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [known, map]);
  return null;
}
