"use client";

import { ErrorNote } from "@/components/dashboard/error-note";
import "leaflet/dist/leaflet.css";
import { useMutation } from "@tanstack/react-query";
import type L from "leaflet";
import { useState } from "react";
import { Circle, CircleMarker, MapContainer, Popup, Tooltip, useMapEvents } from "react-leaflet";
import { call } from "@/lib/api-client";
import type { GeoAddress, Geofence, Place, RegionObject } from "@/lib/types";
import { Basemap, type TileConfig } from "./basemap";
import { PLACE_COLOR } from "./imported-layer";
import { AddressResultsLayer } from "./address-results-layer";
import { AddressSearch, addressPoint } from "./address-search";
import { RouteLayer } from "./route-layer";
import { TransitLayer } from "./transit-layer";
import { type RouteAnswers, RoutePanel } from "./route-panel";

interface ContextAnswer {
  context: {
    geofences: Geofence[];
    place?: Place;
    country?: RegionObject;
    state?: RegionObject;
    postalCode?: RegionObject;
    dma?: RegionObject;
  };
}

interface PlaceQuery {
  near: [number, number];
  radius: string;
  categories: string;
  chains: string;
  groups: string;
  limit: string;
}

interface ReverseAnswer {
  addresses: {
    formattedAddress?: string;
    layer: string;
    latitude?: number;
    longitude?: number;
    distance?: number;
  }[];
}

interface IpAnswer {
  ip: string;
  address: Record<string, unknown> & { latitude?: number; longitude?: number; country: string };
}

/**
 * Try context and reverse geocoding (click the map), forward geocoding and autocomplete (the
 * search box on the map), route distance, place search and IP geocoding, with the results on
 * the map.
 */
export default function Playground({ tiles }: { tiles: TileConfig }) {
  const [point, setPoint] = useState<[number, number] | null>(null);
  const [map, setMap] = useState<L.Map | null>(null);
  const [found, setFound] = useState<{ results: GeoAddress[]; chosen: GeoAddress | null }>({
    results: [],
    chosen: null,
  });
  const [routes, setRoutes] = useState<RouteAnswers | null>(null);
  const context = useMutation({
    mutationFn: ([lat, lng]: [number, number]) =>
      call<ContextAnswer>("GET", `/v1/context?coordinates=${lat},${lng}`).then((r) => r.context),
  });
  const reverse = useMutation({
    mutationFn: ([lat, lng]: [number, number]) =>
      call<ReverseAnswer>("GET", `/v1/geocode/reverse?coordinates=${lat},${lng}`).then(
        (r) => r.addresses[0] ?? null,
      ),
  });
  const ip = useMutation({
    mutationFn: (address: string) =>
      call<IpAnswer>("GET", `/v1/geocode/ip${address ? `?ip=${encodeURIComponent(address)}` : ""}`),
  });
  const [placeQuery, setPlaceQuery] = useState<PlaceQuery | null>(null);
  const places = useMutation({
    mutationFn: (q: PlaceQuery) => {
      const params = new URLSearchParams({ near: `${q.near[0]},${q.near[1]}` });
      for (const k of ["radius", "categories", "chains", "groups", "limit"] as const) {
        if (q[k].trim()) params.set(k, q[k].trim());
      }
      return call<{ places: Place[] }>("GET", `/v1/search/places?${params}`).then((r) => r.places);
    },
  });
  const pick = (lat: number, lng: number) => {
    setPoint([lat, lng]);
    context.mutate([lat, lng]);
    reverse.mutate([lat, lng]);
  };
  const ipPoint =
    ip.data?.address.latitude !== undefined && ip.data.address.longitude !== undefined
      ? ([ip.data.address.latitude, ip.data.address.longitude] as [number, number])
      : null;
  return (
    <div className="flex h-full flex-col lg:flex-row">
      <div className="relative min-h-[55%] min-w-0 flex-1" role="region" aria-label="Playground map">
        <MapContainer center={[30, 0]} zoom={2} className="h-full w-full" ref={setMap}>
          <Basemap tiles={tiles} />
          <ClickToPick onPick={pick} />
          {point && (
            <CircleMarker center={point} radius={7} pathOptions={{ color: "#1d4ed8", fillOpacity: 0.8 }} />
          )}
          {reverse.data?.latitude !== undefined &&
            reverse.data.longitude !== undefined &&
            !!reverse.data.distance && (
              <CircleMarker
                center={[reverse.data.latitude, reverse.data.longitude]}
                radius={5}
                pathOptions={{ color: "#0f766e", fillOpacity: 0.8 }}
              >
                <Tooltip>{reverse.data.formattedAddress}</Tooltip>
              </CircleMarker>
            )}
          {placeQuery && places.data && (
            <Circle
              center={placeQuery.near}
              radius={Number(placeQuery.radius) || 1000}
              pathOptions={{ color: PLACE_COLOR, weight: 1, fill: false, dashArray: "4 3" }}
            />
          )}
          {places.data?.map((p, i) => (
            <CircleMarker
              key={p._id}
              center={[p.location.coordinates[1], p.location.coordinates[0]]}
              radius={6}
              pathOptions={{ color: PLACE_COLOR, fillOpacity: 0.8 }}
            >
              <Tooltip>
                {i + 1}. {p.name}
              </Tooltip>
            </CircleMarker>
          ))}
          <AddressResultsLayer results={found.results} chosen={found.chosen} />
          <RouteLayer routes={routes} />
          <TransitLayer routes={routes} />
          {ipPoint && (
            <CircleMarker center={ipPoint} radius={9} pathOptions={{ color: "#b45309", fillOpacity: 0.6 }}>
              <Popup>
                {ip.data?.ip}: {ip.data?.address.country}
              </Popup>
            </CircleMarker>
          )}
        </MapContainer>
        <div className="absolute top-3 right-3 z-[1000]">
          <AddressSearch
            map={map}
            onResults={(results, chosen) => {
              setFound({ results, chosen });
              // A chosen answer is the picked point too: its context, and a route's end.
              const p = chosen && addressPoint(chosen);
              if (p) pick(p[0], p[1]);
            }}
          />
        </div>
      </div>
      <aside
        aria-label="Results"
        className="max-h-[45%] w-full shrink-0 space-y-6 overflow-y-auto border-t border-slate-200 bg-white p-4 lg:max-h-none lg:w-96 lg:border-t-0 lg:border-l"
      >
        <section aria-labelledby="context-title" className="space-y-2">
          <h2 id="context-title" className="text-lg font-semibold">
            Context
          </h2>
          <p className="text-sm text-slate-600">Click the map, or type coordinates.</p>
          <form
            className="flex gap-2"
            onSubmit={(e) => {
              e.preventDefault();
              const text = String(new FormData(e.currentTarget).get("coordinates") ?? "");
              const [lat, lng] = text.split(",").map((v) => Number(v.trim()));
              if (Number.isFinite(lat) && Number.isFinite(lng)) pick(lat!, lng!);
            }}
          >
            <input
              name="coordinates"
              aria-label="Coordinates"
              placeholder="latitude, longitude"
              className="min-w-0 flex-1 rounded border border-slate-300 px-2 py-1.5 text-sm"
            />
            <button type="submit" className="rounded bg-slate-900 px-3 py-1.5 text-sm text-white">
              Get context
            </button>
          </form>
          {context.isPending && <p className="text-sm text-slate-500">Asking…</p>}
          <ErrorNote error={context.error ?? reverse.error} />
          {context.data && point && (
            <dl aria-label="Context result" className="grid grid-cols-[6rem_1fr] gap-y-1 text-sm">
              <dt className="text-slate-500">Point</dt>
              <dd>
                {point[0].toFixed(5)}, {point[1].toFixed(5)}
              </dd>
              <dt className="text-slate-500">Address</dt>
              <dd>
                {reverse.data?.formattedAddress ?? "—"}
                {reverse.data && (
                  <span className="text-slate-500">
                    {" "}
                    · {reverse.data.layer}
                    {reverse.data.distance ? ` · ${Math.round(reverse.data.distance)} m` : ""}
                  </span>
                )}
              </dd>
              <dt className="text-slate-500">Place</dt>
              <dd>{context.data.place?.name ?? "—"}</dd>
              <dt className="text-slate-500">Country</dt>
              <dd>{region(context.data.country)}</dd>
              <dt className="text-slate-500">State</dt>
              <dd>{region(context.data.state)}</dd>
              <dt className="text-slate-500">Postal code</dt>
              <dd>{region(context.data.postalCode)}</dd>
              <dt className="text-slate-500">DMA</dt>
              <dd>{region(context.data.dma)}</dd>
              <dt className="text-slate-500">Geofences</dt>
              <dd>{context.data.geofences.map((g) => g.description).join(", ") || "none"}</dd>
            </dl>
          )}
        </section>
        <RoutePanel point={point} onRoutes={setRoutes} />
        <section aria-labelledby="places-title" className="space-y-2">
          <h2 id="places-title" className="text-lg font-semibold">
            Place search
          </h2>
          <p className="text-sm text-slate-600">
            Near the point picked on the map; searches the imported places (npm run import).
          </p>
          <form
            className="grid grid-cols-2 gap-2 text-sm"
            onSubmit={(e) => {
              e.preventDefault();
              if (!point) return;
              const f = new FormData(e.currentTarget);
              const get = (k: string) => String(f.get(k) ?? "");
              const q: PlaceQuery = {
                near: point,
                radius: get("radius"),
                categories: get("categories"),
                chains: get("chains"),
                groups: get("groups"),
                limit: get("limit"),
              };
              setPlaceQuery(q);
              places.mutate(q);
            }}
          >
            {(
              [
                ["radius", "Radius (m)", "1000"],
                ["limit", "Limit", "100"],
                ["categories", "Categories", "coffee-shop,bakery"],
                ["chains", "Chains", "starbucks"],
                ["groups", "Groups", "airports"],
              ] as const
            ).map(([name, label, placeholder]) => (
              <label key={name} className="space-y-0.5">
                <span className="block text-slate-600">{label}</span>
                <input
                  name={name}
                  placeholder={placeholder}
                  className="w-full rounded border border-slate-300 px-2 py-1"
                />
              </label>
            ))}
            <button
              type="submit"
              disabled={!point}
              className="self-end rounded bg-slate-900 px-3 py-1.5 text-white disabled:opacity-50"
            >
              Search places
            </button>
          </form>
          {!point && <p className="text-xs text-slate-500">Pick a point on the map first.</p>}
          <ErrorNote error={places.error} />
          {places.data && (
            <ol aria-label="Places found" className="list-decimal space-y-0.5 pl-5 text-sm">
              {places.data.length === 0 && <li className="list-none text-slate-500">No places there.</li>}
              {places.data.map((p) => (
                <li key={p._id}>
                  {p.name}{" "}
                  <span className="text-slate-500">
                    · {p.categories[0]} · {Math.round(p.distance ?? 0)} m
                  </span>
                </li>
              ))}
            </ol>
          )}
        </section>
        <section aria-labelledby="ip-title" className="space-y-2">
          <h2 id="ip-title" className="text-lg font-semibold">
            IP geocoding
          </h2>
          <form
            className="flex gap-2"
            onSubmit={(e) => {
              e.preventDefault();
              ip.mutate(String(new FormData(e.currentTarget).get("ip") ?? "").trim());
            }}
          >
            <input
              name="ip"
              aria-label="IP address"
              placeholder="8.8.8.8 (empty: yours)"
              className="min-w-0 flex-1 rounded border border-slate-300 px-2 py-1.5 text-sm"
            />
            <button type="submit" className="rounded bg-slate-900 px-3 py-1.5 text-sm text-white">
              Look up
            </button>
          </form>
          <ErrorNote error={ip.error} />
          {ip.data && (
            <pre aria-label="IP result" className="overflow-x-auto rounded bg-slate-50 p-2 text-xs">
              {JSON.stringify(ip.data.address, null, 2)}
            </pre>
          )}
        </section>
      </aside>
    </div>
  );
}

const region = (r?: RegionObject) => (r ? `${r.name}${r.code ? ` (${r.code})` : ""}` : "—");

function ClickToPick({ onPick }: { onPick: (lat: number, lng: number) => void }) {
  useMapEvents({ click: (e) => onPick(e.latlng.lat, e.latlng.lng) });
  return null;
}
