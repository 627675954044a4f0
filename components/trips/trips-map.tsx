"use client";

import "leaflet/dist/leaflet.css";
import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { CircleMarker, MapContainer, Polyline, Tooltip, useMap } from "react-leaflet";
import { call } from "@/lib/api-client";
import L from "../map/leaflet-global";
import { Basemap, MAX_ZOOM, type TileConfig } from "../map/basemap";
import type { BoardTrip } from "./types";

const USER = "#1d4ed8";
const DESTINATION = "#b45309";
const ROUTE = "#7c3aed";

const latLng = ([lng, lat]: [number, number]) => [lat, lng] as [number, number];

/** Every trip's user and destination; the open trip's road left, drawn from the server's route. */
export default function TripsMap(props: {
  trips: BoardTrip[];
  open: string | null;
  onOpen: (id: string) => void;
  tiles: TileConfig;
}) {
  const opened = props.trips.find((t) => t._id === props.open);
  return (
    <MapContainer
      center={[20, 0]}
      zoom={2}
      maxZoom={MAX_ZOOM}
      className="h-full min-h-80 w-full"
      aria-label="Trips map"
    >
      <Basemap tiles={props.tiles} />
      {props.trips.map((t) => (
        <TripMarks key={t._id} trip={t} open={t._id === props.open} onOpen={() => props.onOpen(t._id)} />
      ))}
      {opened && <RemainingRoute trip={opened} />}
      <Fit trips={props.trips} open={props.open} />
    </MapContainer>
  );
}

function TripMarks({ trip, open, onOpen }: { trip: BoardTrip; open: boolean; onOpen: () => void }) {
  const dest = trip.destinationLocation?.coordinates;
  const at = trip.user?.location.coordinates;
  return (
    <>
      {dest && (
        <CircleMarker
          center={latLng(dest)}
          radius={open ? 8 : 5}
          pathOptions={{ color: DESTINATION, fillOpacity: 0.6 }}
          eventHandlers={{ click: onOpen }}
        >
          <Tooltip>Destination of {trip.externalId}</Tooltip>
        </CircleMarker>
      )}
      {at && (
        <CircleMarker
          center={latLng(at)}
          radius={open ? 8 : 6}
          pathOptions={{ color: USER, fillColor: USER, fillOpacity: 1 }}
          eventHandlers={{ click: onOpen }}
        >
          <Tooltip permanent={open} direction="top">
            {trip.externalId} · {trip.status}
            {trip.eta ? ` · ${trip.eta.duration} min` : ""}
          </Tooltip>
        </CircleMarker>
      )}
    </>
  );
}

/** The road left by the trip's mode; a dashed straight line where no imported road joins them. */
function RemainingRoute({ trip }: { trip: BoardTrip }) {
  const route = useQuery({
    queryKey: ["trips", "path", trip._id],
    refetchInterval: 5000,
    queryFn: () => call<{ line: [number, number][] | null }>("GET", `/api/trips/${trip._id}/path`),
  });
  const line = route.data?.line;
  if (line?.length) {
    return <Polyline positions={line.map(latLng)} pathOptions={{ color: ROUTE, weight: 4, opacity: 0.8 }} />;
  }
  const [from, to] = [trip.user?.location.coordinates, trip.destinationLocation?.coordinates];
  if (!route.isSuccess || !from || !to) return null;
  return (
    <Polyline
      positions={[latLng(from), latLng(to)]}
      pathOptions={{ color: ROUTE, weight: 2, dashArray: "6 6" }}
    />
  );
}

/** Fits the view to the trips once they first load, and to the open trip when one is opened. */
function Fit({ trips, open }: { trips: BoardTrip[]; open: string | null }) {
  const map = useMap();
  const shown = open ? trips.filter((t) => t._id === open) : trips;
  const key = `${open ?? ""}:${shown.length > 0}`;
  useEffect(() => {
    const points = shown.flatMap((t) =>
      [t.user?.location.coordinates, t.destinationLocation?.coordinates].filter(
        (p): p is [number, number] => !!p,
      ),
    );
    if (!points.length) return;
    map.fitBounds(L.latLngBounds(points.map(latLng)).pad(0.2), { maxZoom: 17 });
    // Only when the trip opened (or the first trips came): live updates do not move the view.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  return null;
}
