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
import { type ReactNode, useEffect, useMemo, useRef, useState } from "react";
import { MapContainer, useMap } from "react-leaflet";
import { replaceQuery } from "@/lib/address";
import { formatView, parseView } from "@/lib/map-view";
import type { GeoAddress, Geofence, User } from "@/lib/types";
import { AddressResultsLayer } from "../map/address-results-layer";
import { AddressSearch } from "../map/address-search";
import { Basemap, MAX_ZOOM, type TileConfig } from "../map/basemap";
import { DrawControls } from "./draw-controls";
import { GeofenceDetails, GeofenceGone } from "./geofence-details";
import { type Draft, GeofenceForm } from "./geofence-form";
import { GeofenceShape } from "./geofence-shape";
import { ImportedLayer } from "../map/imported-layer";
import { type Layers, MapOverview, NO_LAYERS } from "./map-overview";
import { RegionBorders } from "../map/region-borders";
import { type DraftLayer, boundsOf, toLayer } from "../map/shapes";
import { StartView } from "../map/start-view";
import { openGeofenceKey, useMapData } from "./use-map-data";
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
  const address = useMapAddress();
  const { initial, tag, text, selected, selectedUser, pickGeofence, pickUser } = address;
  const [draft, setDraft] = useState<Draft | null>(null);
  const [map, setMap] = useState<L.Map | null>(null);
  const [layers, setLayers] = useState<Layers>(NO_LAYERS);
  const [found, setFound] = useState<{ results: GeoAddress[]; chosen: GeoAddress | null }>({
    results: [],
    chosen: null,
  });

  const data = useMapData({ view: address.view, tag, text, geofenceId: selected, userId: selectedUser });
  const tags = useSeenTags(data.geofences, initial.tag);
  const shown = useShown(data.geofences, data.selectedGeofence, text);

  const refresh = () => queryClient.invalidateQueries({ queryKey: ["geofences"] });
  const open = (g: Geofence) => {
    pickGeofence(g._id);
    map?.fitBounds(boundsOf(g), { maxZoom: 16 });
  };
  const start = initial.view ?? DEFAULT_VIEW;
  const overview = (
    <MapOverview
      filter={{ tags, tag, setTag: address.setTag, text, setText: address.setText }}
      inView={shown}
      data={data}
      canEdit={canEdit}
      layers={layers}
      setLayers={setLayers}
      onShowArea={(bbox) => map && showArea(map, bbox)}
      onPick={open}
    />
  );
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
          <ViewTracker onView={address.setView} />
          <StartView enabled={!initial.view && !initial.geofence} />
          {initial.geofence && !initial.view && <FitTo geofence={data.selectedGeofence} map={map} />}
          <MapLayers
            shown={shown.filter((g) => g._id !== draft?.existing?._id)}
            selected={selected}
            users={data.users}
            selectedUser={selectedUser}
            layers={layers}
            pickGeofence={pickGeofence}
            pickUser={pickUser}
            onDraw={canEdit ? (layer) => setDraft({ layer }) : undefined}
            drawing={!!draft}
          />
          <AddressResultsLayer results={found.results} chosen={found.chosen} />
        </MapContainer>
        <MapOverlays
          map={map}
          onSearch={canSearch ? (results, chosen) => setFound({ results, chosen }) : undefined}
          loading={data.loading}
        />
      </div>
      <aside
        aria-label="Details"
        className="max-h-[45%] w-full shrink-0 space-y-4 overflow-y-auto border-t border-slate-200 bg-white p-4 lg:max-h-none lg:w-96 lg:border-t-0 lg:border-l"
      >
        <SidePanel
          draft={draft}
          setDraft={setDraft}
          map={map}
          geofence={selected ? data.selectedGeofence : undefined}
          geofenceGone={data.selectedGone}
          user={selectedUser ? data.selectedUser : undefined}
          canEdit={canEdit}
          pickGeofence={pickGeofence}
          pickUser={pickUser}
          open={open}
          refresh={refresh}
          overview={overview}
        />
      </aside>
    </div>
  );
}

/** The map on a [west, south, east, north] box. */
const showArea = (map: L.Map, [w, s, e, n]: [number, number, number, number]) =>
  map.fitBounds(
    [
      [s, w],
      [n, e],
    ],
    { animate: false },
  );

/** Over the map: the address search (when the role may search), and "Loading…". */
function MapOverlays({
  map,
  onSearch,
  loading,
}: {
  map: L.Map | null;
  onSearch?: (results: GeoAddress[], chosen: GeoAddress | null) => void;
  loading: boolean;
}) {
  return (
    <>
      {onSearch && (
        <div className="absolute top-3 right-3 z-[1000]">
          <AddressSearch map={map} onResults={onSearch} />
        </div>
      )}
      {loading && (
        <p className="absolute top-3 left-1/2 z-[1000] -translate-x-1/2 rounded bg-white px-3 py-1 text-sm shadow">
          Loading…
        </p>
      )}
    </>
  );
}

/** What the map draws: the geofences shown, the users and the open one's trail, the drawing tools, layers. */
function MapLayers(props: {
  shown: Geofence[];
  selected: string | null;
  users: User[];
  selectedUser: string | null;
  layers: Layers;
  pickGeofence: (id: string) => void;
  pickUser: (id: string) => void;
  /** how a drawn shape becomes a draft, when the role may draw */
  onDraw?: (layer: DraftLayer) => void;
  drawing: boolean;
}) {
  const map = useMap();
  // A click that places a vertex inside a geofence or on a user draws; it does not open them.
  const placingVertex = () => map.pm.globalDrawModeEnabled();
  return (
    <>
      {props.shown.map((g) => (
        <GeofenceShape
          key={`${g._id}-${g.updatedAt}`}
          g={g}
          selected={g._id === props.selected}
          onClick={() => placingVertex() || props.pickGeofence(g._id)}
        />
      ))}
      <UserMarkers users={props.users} onPick={(u) => placingVertex() || props.pickUser(u._id)} />
      {props.selectedUser && <UserTrail userId={props.selectedUser} />}
      {props.onDraw && <DrawControls onCreate={props.onDraw} disabled={props.drawing} />}
      {props.layers.borders && <RegionBorders />}
      {props.layers.imported && <ImportedLayer />}
    </>
  );
}

/**
 * Beside the map: the geofence being drawn or edited, else the open geofence, else the open
 * user, else the overview.
 */
function SidePanel(props: {
  draft: Draft | null;
  setDraft: (d: Draft | null) => void;
  map: L.Map | null;
  geofence?: Geofence;
  geofenceGone: boolean;
  user?: User;
  canEdit: boolean;
  pickGeofence: (id: string | null) => void;
  pickUser: (id: string | null) => void;
  open: (g: Geofence) => void;
  refresh: () => Promise<void>;
  overview: ReactNode;
}) {
  const { draft, setDraft, geofence } = props;
  const queryClient = useQueryClient();
  const endDraft = () => {
    draft?.layer.remove();
    setDraft(null);
  };
  const startEdit = (g: Geofence) => {
    if (!props.map) return;
    const layer = toLayer(g).addTo(props.map);
    layer.pm.enable({ allowSelfIntersection: true });
    setDraft({ layer, existing: g });
  };
  if (draft)
    return (
      <GeofenceForm
        key={draft.existing?._id ?? "new"}
        draft={draft}
        map={props.map}
        onCancel={endDraft}
        onSaved={(g) => {
          endDraft();
          props.pickGeofence(g._id);
          void props.refresh();
        }}
        onOpen={(g) => {
          endDraft();
          props.open(g);
        }}
      />
    );
  if (geofence)
    return (
      <GeofenceDetails
        g={geofence}
        canEdit={props.canEdit}
        onClose={() => props.pickGeofence(null)}
        onEdit={() => startEdit(geofence)}
        onDeleted={() => {
          // Its own read (use-map-data.ts) would only answer 404 now: dropped, not read again.
          queryClient.removeQueries({ queryKey: openGeofenceKey(geofence._id), exact: true });
          props.pickGeofence(null);
          void props.refresh();
        }}
      />
    );
  if (props.geofenceGone) return <GeofenceGone onClose={() => props.pickGeofence(null)} />;
  if (props.user) return <UserDetails u={props.user} onClose={() => props.pickUser(null)} />;
  return props.overview;
}

/** The map's state that the address keeps: view, tag, search text, the open geofence or user. */
function useMapAddress() {
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
  const pickGeofence = (id: string | null) => {
    setSelected(id);
    setSelectedUser(null);
  };
  const pickUser = (id: string | null) => {
    setSelectedUser(id);
    setSelected(null);
  };
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
  return {
    initial,
    view,
    setView,
    tag,
    setTag,
    text,
    setText,
    selected,
    selectedUser,
    pickGeofence,
    pickUser,
  };
}

/** Tags seen so far (the server filters by tag, so the loaded geofences name only the chosen one). */
function useSeenTags(geofences: Geofence[], initialTag: string) {
  const [seenTags, setSeenTags] = useState<ReadonlySet<string>>(new Set(initialTag ? [initialTag] : []));
  const newTags = geofences.map((g) => g.tag).filter((t): t is string => !!t && !seenTags.has(t));
  if (newTags.length) setSeenTags(new Set([...seenTags, ...newTags]));
  return useMemo(() => [...seenTags].sort(), [seenTags]);
}

/** The shapes: those in view matching the text, and the open one wherever it is. */
function useShown(geofences: Geofence[], open: Geofence | undefined, text: string) {
  return useMemo(() => {
    const needle = text.trim().toLowerCase();
    const list = geofences.filter(
      (g) =>
        !needle ||
        g.description.toLowerCase().includes(needle) ||
        (g.tag ?? "").toLowerCase().includes(needle) ||
        (g.externalId ?? "").toLowerCase().includes(needle),
    );
    return open && !list.some((g) => g._id === open._id) ? [...list, open] : list;
  }, [geofences, open, text]);
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
