"use client";

import "leaflet/dist/leaflet.css";
import { useMutation } from "@tanstack/react-query";
import type L from "leaflet";
import { useState } from "react";
import { Circle, CircleMarker, MapContainer, Popup, Tooltip } from "react-leaflet";
import { call } from "@/lib/api-client";
import type { GeoAddress, Place } from "@/lib/types";
import { StartView } from "../map/start-view";
import { Basemap, MAX_ZOOM, type TileConfig } from "../map/basemap";
import { PLACE_COLOR } from "../map/imported-layer";
import { AddressResultsLayer } from "../map/address-results-layer";
import { AddressSearch, addressPoint } from "../map/address-search";
import { RouteLayer } from "./route-layer";
import { TransitLayer } from "./transit-layer";
import type { RouteAnswers } from "@/lib/types";
import { RoutePanel } from "./route-panel";
import { TripLayer } from "./trip-layer";
import { TripPanel, type TripView } from "./trip-panel";
import { ClickToPick } from "./click-to-pick";
import { type ContextAnswer, ContextPanel, type ReverseAnswer } from "./context-panel";
import { type IpAnswer, IpPanel } from "./ip-panel";
import { type PlaceQuery, PlaceSearchPanel } from "./place-search-panel";
import { type LngLat, latLngText, leafletPoint } from "@/lib/position";

/**
 * Try context and reverse geocoding (click the map), forward geocoding and autocomplete (the
 * search box on the map), route distance, directions, optimized stops and map matching, place
 * search and IP geocoding, with the results on the map.
 */
export default function Playground({ tiles }: { tiles: TileConfig }) {
  const [point, setPoint] = useState<LngLat | null>(null);
  const [map, setMap] = useState<L.Map | null>(null);
  const [found, setFound] = useState<{ results: GeoAddress[]; chosen: GeoAddress | null }>({
    results: [],
    chosen: null,
  });
  const [routes, setRoutes] = useState<RouteAnswers | null>(null);
  const [trip, setTrip] = useState<TripView | null>(null);
  const context = useMutation({
    mutationFn: (p: LngLat) =>
      call<ContextAnswer>("GET", `/v1/context?coordinates=${latLngText(p)}`).then((r) => r.context),
  });
  const reverse = useMutation({
    mutationFn: (p: LngLat) =>
      call<ReverseAnswer>("GET", `/v1/geocode/reverse?coordinates=${latLngText(p)}`).then(
        (r) => r.addresses[0] ?? null,
      ),
  });
  const [ip, setIp] = useState<IpAnswer | null>(null);
  const [places, setPlaces] = useState<{ query: PlaceQuery; places: Place[] } | null>(null);
  const pick = (p: LngLat) => {
    setPoint(p);
    context.mutate(p);
    reverse.mutate(p);
  };
  return (
    <div className="flex h-full flex-col lg:flex-row">
      <div className="relative min-h-[55%] min-w-0 flex-1" role="region" aria-label="Playground map">
        <MapContainer center={[30, 0]} zoom={2} maxZoom={MAX_ZOOM} className="h-full w-full" ref={setMap}>
          <Basemap tiles={tiles} />
          <StartView enabled importsOnly />
          <ClickToPick onPick={pick} />
          {point && (
            <CircleMarker
              center={leafletPoint(point)}
              radius={7}
              pathOptions={{ color: "#1d4ed8", fillOpacity: 0.8 }}
            />
          )}
          <ReverseMarker address={reverse.data} />
          <PlaceMarkers places={places} />
          <AddressResultsLayer results={found.results} chosen={found.chosen} />
          <RouteLayer routes={routes} />
          <TransitLayer routes={routes} />
          <TripLayer view={trip} />
          <IpMarker ip={ip} />
        </MapContainer>
        <div className="absolute top-3 right-3 z-[1000]">
          <AddressSearch
            map={map}
            onResults={(results, chosen) => {
              setFound({ results, chosen });
              // A chosen answer is the picked point too: its context, and a route's end.
              const p = chosen && addressPoint(chosen);
              if (p) pick(p);
            }}
          />
        </div>
      </div>
      <aside
        aria-label="Results"
        className="max-h-[45%] w-full shrink-0 space-y-6 overflow-y-auto border-t border-slate-200 bg-white p-4 lg:max-h-none lg:w-96 lg:border-t-0 lg:border-l"
      >
        <ContextPanel point={point} onPick={pick} context={context} reverse={reverse} />
        <RoutePanel point={point} onRoutes={setRoutes} />
        <TripPanel point={point} map={map} onView={setTrip} />
        <PlaceSearchPanel point={point} onResults={setPlaces} />
        <IpPanel onAnswer={setIp} />
      </aside>
    </div>
  );
}

/** The address reverse geocoding found for the picked point, where it is. */
function ReverseMarker({ address }: { address?: ReverseAnswer["addresses"][number] | null }) {
  if (address?.latitude === undefined || address.longitude === undefined || !address.distance) return null;
  return (
    <CircleMarker
      center={leafletPoint([address.longitude, address.latitude])}
      radius={5}
      pathOptions={{ color: "#0f766e", fillOpacity: 0.8 }}
    >
      <Tooltip>{address.formattedAddress}</Tooltip>
    </CircleMarker>
  );
}

/** The places a search found, numbered, and the circle searched. */
function PlaceMarkers({ places }: { places: { query: PlaceQuery; places: Place[] } | null }) {
  if (!places) return null;
  return (
    <>
      <Circle
        center={leafletPoint(places.query.near)}
        radius={Number(places.query.radius) || 1000}
        pathOptions={{ color: PLACE_COLOR, weight: 1, fill: false, dashArray: "4 3" }}
      />
      {places.places.map((p, i) => (
        <CircleMarker
          key={p._id}
          center={leafletPoint(p.location.coordinates)}
          radius={6}
          pathOptions={{ color: PLACE_COLOR, fillOpacity: 0.8 }}
        >
          <Tooltip>
            {i + 1}. {p.name}
          </Tooltip>
        </CircleMarker>
      ))}
    </>
  );
}

/** Where IP geocoding placed an address. */
function IpMarker({ ip }: { ip: IpAnswer | null }) {
  if (ip?.address.latitude === undefined || ip.address.longitude === undefined) return null;
  return (
    <CircleMarker
      center={leafletPoint([ip.address.longitude, ip.address.latitude])}
      radius={9}
      pathOptions={{ color: "#b45309", fillOpacity: 0.6 }}
    >
      <Popup>
        {ip.ip}: {ip.address.country}
      </Popup>
    </CircleMarker>
  );
}
