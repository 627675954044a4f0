"use client";

import "leaflet/dist/leaflet.css";
import "@geoman-io/leaflet-geoman-free/dist/leaflet-geoman.css";
import "leaflet.markercluster/dist/MarkerCluster.css";
import "leaflet.markercluster/dist/MarkerCluster.Default.css";
import type L from "leaflet";
import "../map/leaflet-global";
import "@geoman-io/leaflet-geoman-free";
import { useQueryClient } from "@tanstack/react-query";
import { useSearchParams } from "next/navigation";
import { useEffect, useMemo, useRef, useState } from "react";
import { MapContainer } from "react-leaflet";
import { replaceQuery } from "@/lib/address";
import { formatView, parseView } from "@/lib/map-view";
import type { GeoAddress, Geofence } from "@/lib/types";
import { AddressResultsLayer } from "../map/address-results-layer";
import { AddressSearch } from "../map/address-search";
import { Basemap, MAX_ZOOM, type TileConfig } from "../map/basemap";
import { DrawControls } from "./draw-controls";
import { GeofenceDetails } from "./geofence-details";
import { type Draft, GeofenceForm } from "./geofence-form";
import { GeofenceShape } from "./geofence-shape";
import { ImportedLayer } from "../map/imported-layer";
import { MapOverview } from "./map-overview";
import { RegionBorders } from "../map/region-borders";
import { boundsOf, toLayer } from "../map/shapes";
import { StartView } from "../map/start-view";
import { MAP_LIMIT, useMapData } from "./use-map-data";
import { UserDetails } from "../users/user-details";
import { UserMarkers } from "../users/user-markers";
import { UserTrail } from "../users/user-trail";
import { type MapView, ViewTracker } from "../map/view-tracker";

/** Where the map opens when neither the address nor the data says. */
const DEFAULT_VIEW = { center: [-73.97, 40.75] as [number, number], zoom: 11 };

/**
 * The analysts' map: geofences and users of the area in view (asked of the server as the map
 * moves), drawing and editing, layers, and the address search. The view, tag, search text and
 * the open geofence or user are in the address, so a link opens the same map.
 */
export default function GeofenceMap({
  tiles,
  canEdit,
  canSearch,
}: {
  tiles: TileConfig;
  canEdit: boolean;
  canSearch: boolean;
}) {
  const queryClient = useQueryClient();
  const params = useSearchParams();
  const [initial] = useState(() => ({
    view: parseView(params.get("view")),
    tag: params.get("tag") ?? "",
    text: params.get("q") ?? "",
    geofence: params.get("geofence"),
    user: params.get("user"),
  }));
  const [view, setView] = useState<MapView | null>(null);
  const [tag, setTag] = useState(initial.tag);
  const [text, setText] = useState(initial.text);
  const [selected, setSelected] = useState<string | null>(initial.geofence);
  const [selectedUser, setSelectedUser] = useState<string | null>(initial.user);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [map, setMap] = useState<L.Map | null>(null);
  const [borders, setBorders] = useState(false);
  const [imported, setImported] = useState(false);
  const [found, setFound] = useState<{ results: GeoAddress[]; chosen: GeoAddress | null }>({
    results: [],
    chosen: null,
  });

  const data = useMapData({ view, tag, text, geofenceId: selected, userId: selectedUser });

  // Tags seen so far (the server filters by tag, so the loaded geofences name only the chosen one).
  const [seenTags, setSeenTags] = useState<ReadonlySet<string>>(new Set(initial.tag ? [initial.tag] : []));
  const newTags = data.geofences.map((g) => g.tag).filter((t): t is string => !!t && !seenTags.has(t));
  if (newTags.length) setSeenTags(new Set([...seenTags, ...newTags]));
  const tags = useMemo(() => [...seenTags].sort(), [seenTags]);

  // The shapes: those in view matching the text, and the open one wherever it is.
  const shown = useMemo(() => {
    const needle = text.trim().toLowerCase();
    const list = data.geofences.filter(
      (g) =>
        !needle ||
        g.description.toLowerCase().includes(needle) ||
        (g.tag ?? "").toLowerCase().includes(needle) ||
        (g.externalId ?? "").toLowerCase().includes(needle),
    );
    const open = data.selectedGeofence;
    return open && !list.some((g) => g._id === open._id) ? [...list, open] : list;
  }, [data.geofences, data.selectedGeofence, text]);

  useEffect(() => {
    if (!view) return;
    replaceQuery({
      view: formatView(view.center, view.zoom),
      tag,
      q: text,
      geofence: selected,
      user: selectedUser,
    });
  }, [view, tag, text, selected, selectedUser]);

  const refresh = () => queryClient.invalidateQueries({ queryKey: ["geofences"] });

  function startEdit(g: Geofence) {
    if (!map) return;
    const layer = toLayer(g).addTo(map);
    layer.pm.enable({ allowSelfIntersection: true });
    setDraft({ layer, existing: g });
  }

  function endDraft() {
    draft?.layer.remove();
    setDraft(null);
  }

  const open = (g: Geofence) => {
    setSelected(g._id);
    setSelectedUser(null);
    map?.fitBounds(boundsOf(g), { maxZoom: 16 });
  };

  const start = initial.view ?? DEFAULT_VIEW;
  return (
    <div className="flex h-full flex-col lg:flex-row">
      <div
        className="relative min-h-[55%] min-w-0 flex-1"
        role="region"
        aria-label="Map of geofences and users"
      >
        <MapContainer
          center={[start.center[1], start.center[0]]}
          zoom={start.zoom}
          maxZoom={MAX_ZOOM}
          className="h-full w-full"
          ref={setMap}
        >
          <Basemap tiles={tiles} />
          <ViewTracker onView={setView} />
          <StartView enabled={!initial.view && !initial.geofence} />
          {initial.geofence && !initial.view && <FitTo geofence={data.selectedGeofence} map={map} />}
          {shown
            .filter((g) => g._id !== draft?.existing?._id)
            .map((g) => (
              <GeofenceShape
                key={`${g._id}-${g.updatedAt}`}
                g={g}
                selected={g._id === selected}
                onClick={() => {
                  setSelected(g._id);
                  setSelectedUser(null);
                }}
              />
            ))}
          <UserMarkers
            users={data.users}
            onPick={(u) => {
              setSelectedUser(u._id);
              setSelected(null);
            }}
          />
          {selectedUser && <UserTrail userId={selectedUser} />}
          {canEdit && <DrawControls onCreate={(layer) => setDraft({ layer })} disabled={!!draft} />}
          {borders && <RegionBorders />}
          {imported && <ImportedLayer />}
          <AddressResultsLayer results={found.results} chosen={found.chosen} />
        </MapContainer>
        {canSearch && (
          <div className="absolute top-3 right-3 z-[1000]">
            <AddressSearch map={map} onResults={(results, chosen) => setFound({ results, chosen })} />
          </div>
        )}
        {data.loading && (
          <p className="absolute top-3 left-1/2 z-[1000] -translate-x-1/2 rounded bg-white px-3 py-1 text-sm shadow">
            Loading…
          </p>
        )}
      </div>
      <aside
        aria-label="Details"
        className="max-h-[45%] w-full shrink-0 space-y-4 overflow-y-auto border-t border-slate-200 bg-white p-4 lg:max-h-none lg:w-96 lg:border-t-0 lg:border-l"
      >
        {draft ? (
          <GeofenceForm
            key={draft.existing?._id ?? "new"}
            draft={draft}
            onCancel={endDraft}
            onSaved={(g) => {
              endDraft();
              setSelected(g._id);
              void refresh();
            }}
            onOpen={(g) => {
              endDraft();
              open(g);
            }}
          />
        ) : selected && data.selectedGeofence ? (
          <GeofenceDetails
            g={data.selectedGeofence}
            canEdit={canEdit}
            onClose={() => setSelected(null)}
            onEdit={() => startEdit(data.selectedGeofence!)}
            onDeleted={() => {
              setSelected(null);
              void refresh();
            }}
          />
        ) : selectedUser && data.selectedUser ? (
          <UserDetails u={data.selectedUser} onClose={() => setSelectedUser(null)} />
        ) : (
          <MapOverview
            tags={tags}
            tag={tag}
            setTag={setTag}
            text={text}
            setText={setText}
            inView={shown}
            inViewMore={data.geofencesMore}
            matches={data.matches}
            users={data.users.length}
            usersMore={data.usersMore}
            limit={MAP_LIMIT}
            error={data.error}
            canEdit={canEdit}
            borders={borders}
            setBorders={setBorders}
            imported={imported}
            setImported={setImported}
            onShowArea={([w, s, e, n]) =>
              map?.fitBounds(
                [
                  [s, w],
                  [n, e],
                ],
                { animate: false },
              )
            }
            onPick={open}
          />
        )}
      </aside>
    </div>
  );
}

/** A linked geofence (in the address without a view): the map opens on it once it is read. */
function FitTo({ geofence, map }: { geofence?: Geofence; map: L.Map | null }) {
  const done = useRef(false);
  useEffect(() => {
    if (done.current || !geofence || !map) return;
    done.current = true;
    map.fitBounds(boundsOf(geofence), { maxZoom: 16, animate: false });
  }, [geofence, map]);
  return null;
}
