"use client";

import "leaflet/dist/leaflet.css";
import "@geoman-io/leaflet-geoman-free/dist/leaflet-geoman.css";
import "leaflet.markercluster/dist/MarkerCluster.css";
import "leaflet.markercluster/dist/MarkerCluster.Default.css";
import L from "./leaflet-global";
import "@geoman-io/leaflet-geoman-free";
import { useEffect, useMemo, useRef, useState } from "react";
import { Circle, MapContainer, Marker, Polygon, useMap } from "react-leaflet";
import MarkerClusterGroup from "react-leaflet-cluster";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ErrorNote } from "@/components/dashboard/error-note";
import { call } from "@/lib/api-client";
import type { GeoAddress, Geofence, LocationEvent, User } from "@/lib/types";
import { CONFIDENCE } from "@/lib/types";
import { Basemap, type TileConfig } from "./basemap";
import { tagColor } from "./colors";
import { RegionBorders } from "./region-borders";
import { ImportedLayer, ImportList } from "./imported-layer";
import { type Draft, GeofenceForm } from "./geofence-form";
import { boundsOf, toLayer } from "./shapes";
import { AddressSearch } from "./address-search";
import { AddressResultsLayer } from "./address-results-layer";

const userIcon = L.divIcon({
  className: "",
  html: '<span style="display:block;width:12px;height:12px;border-radius:9999px;background:#2563eb;border:2px solid white;box-shadow:0 0 2px #0008"></span>',
  iconSize: [12, 12],
  iconAnchor: [6, 6],
});

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
  const geofences = useQuery({
    queryKey: ["geofences", "all"],
    queryFn: () =>
      call<{ geofences: Geofence[] }>("GET", "/v1/geofences?limit=1000").then((r) => r.geofences),
  });
  const users = useQuery({
    queryKey: ["users", "map"],
    queryFn: () => call<{ users: User[] }>("GET", "/v1/users?limit=1000").then((r) => r.users),
    refetchInterval: 5000,
  });
  const [tag, setTag] = useState("");
  const [text, setText] = useState("");
  const [selected, setSelected] = useState<string | null>(null);
  const [selectedUser, setSelectedUser] = useState<string | null>(null);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [map, setMap] = useState<L.Map | null>(null);
  const [borders, setBorders] = useState(false);
  const [imported, setImported] = useState(false);
  const [found, setFound] = useState<{ results: GeoAddress[]; chosen: GeoAddress | null }>({
    results: [],
    chosen: null,
  });

  const tags = useMemo(
    () => [...new Set((geofences.data ?? []).map((g) => g.tag).filter((t): t is string => !!t))].sort(),
    [geofences.data],
  );
  const shown = useMemo(() => {
    const needle = text.trim().toLowerCase();
    return (geofences.data ?? []).filter(
      (g) =>
        (!tag || g.tag === tag) &&
        (!needle ||
          g.description.toLowerCase().includes(needle) ||
          (g.externalId ?? "").toLowerCase().includes(needle)),
    );
  }, [geofences.data, tag, text]);
  const selectedGeofence = geofences.data?.find((g) => g._id === selected);
  const user = users.data?.find((u) => u._id === selectedUser);

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

  return (
    <div className="flex h-full flex-col lg:flex-row">
      <div
        className="relative min-h-[55%] min-w-0 flex-1"
        role="region"
        aria-label="Map of geofences and users"
      >
        <MapContainer center={[40.75, -73.97]} zoom={11} className="h-full w-full" ref={setMap}>
          <Basemap tiles={tiles} />
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
          <MarkerClusterGroup chunkedLoading>
            {(users.data ?? []).map((u) => (
              <Marker
                key={u._id}
                position={[u.location.coordinates[1], u.location.coordinates[0]]}
                icon={userIcon}
                title={u.userId ?? u.deviceId}
                eventHandlers={{
                  click: () => {
                    setSelectedUser(u._id);
                    setSelected(null);
                  },
                }}
              />
            ))}
          </MarkerClusterGroup>
          {canEdit && <DrawControls onCreate={(layer) => setDraft({ layer })} disabled={!!draft} />}
          <FitOnce geofences={geofences.data} />
          {borders && <RegionBorders />}
          {imported && <ImportedLayer />}
          <AddressResultsLayer results={found.results} chosen={found.chosen} />
        </MapContainer>
        {canSearch && (
          <div className="absolute top-3 right-3 z-[1000]">
            <AddressSearch map={map} onResults={(results, chosen) => setFound({ results, chosen })} />
          </div>
        )}
        {(geofences.isLoading || users.isLoading) && (
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
              setSelected(g._id);
              map?.fitBounds(boundsOf(g), { maxZoom: 16 });
            }}
          />
        ) : selectedGeofence ? (
          <GeofenceDetails
            g={selectedGeofence}
            canEdit={canEdit}
            onClose={() => setSelected(null)}
            onEdit={() => startEdit(selectedGeofence)}
            onDeleted={() => {
              setSelected(null);
              void refresh();
            }}
          />
        ) : user ? (
          <UserDetails u={user} onClose={() => setSelectedUser(null)} />
        ) : (
          <Overview
            tags={tags}
            tag={tag}
            setTag={setTag}
            text={text}
            setText={setText}
            shown={shown}
            total={geofences.data?.length ?? 0}
            users={users.data?.length ?? 0}
            error={geofences.error ?? users.error}
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
            onPick={(g) => {
              setSelected(g._id);
              map?.fitBounds(boundsOf(g), { maxZoom: 16 });
            }}
          />
        )}
      </aside>
    </div>
  );
}

function GeofenceShape({ g, selected, onClick }: { g: Geofence; selected: boolean; onClick: () => void }) {
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

/** Geoman's drawing tools: a polygon or a circle, handed over as a draft once finished. */
function DrawControls({
  onCreate,
  disabled,
}: {
  onCreate: (l: L.Circle | L.Polygon) => void;
  disabled: boolean;
}) {
  const map = useMap();
  const onCreateRef = useRef(onCreate);
  useEffect(() => {
    onCreateRef.current = onCreate;
  });
  useEffect(() => {
    const created = (e: { layer: L.Layer }) => {
      const layer = e.layer as L.Circle | L.Polygon;
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
      drawMarker: false,
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
    map.pm.setGlobalOptions({ allowSelfIntersection: true, snappable: false });
    // Geoman titles the wrapper, not the button: give the buttons their names.
    for (const wrapper of map.getContainer().querySelectorAll<HTMLElement>(".leaflet-pm-toolbar [title]")) {
      wrapper.querySelector("[role=button]")?.setAttribute("aria-label", wrapper.title);
    }
    return () => map.pm.removeControls();
  }, [map, disabled]);
  return null;
}

function FitOnce({ geofences }: { geofences?: Geofence[] }) {
  const map = useMap();
  const done = useRef(false);
  useEffect(() => {
    if (done.current || !geofences?.length) return;
    done.current = true;
    const bounds = L.latLngBounds([]);
    for (const g of geofences) bounds.extend(boundsOf(g));
    map.fitBounds(bounds, { maxZoom: 15, padding: [20, 20], animate: false });
  }, [geofences, map]);
  return null;
}

const input = "w-full rounded border border-slate-300 px-2 py-1.5 text-sm";

function GeofenceDetails(props: {
  g: Geofence;
  canEdit: boolean;
  onClose: () => void;
  onEdit: () => void;
  onDeleted: () => void;
}) {
  const { g } = props;
  const [confirming, setConfirming] = useState(false);
  const members = useQuery({
    queryKey: ["geofence-users", g._id],
    queryFn: () =>
      call<{ users: User[] }>("GET", `/v1/geofences/${g._id}/users?limit=100`).then((r) => r.users),
  });
  const remove = useMutation({
    mutationFn: () => call("DELETE", `/v1/geofences/${g._id}`),
    onSuccess: props.onDeleted,
  });
  return (
    <section className="space-y-3" aria-label="Geofence">
      <div className="flex items-start justify-between gap-2">
        <h2 className="text-lg font-semibold">{g.description}</h2>
        <button type="button" onClick={props.onClose} className="text-sm text-slate-600 underline">
          Close
        </button>
      </div>
      <dl className="grid grid-cols-[7rem_1fr] gap-y-1 text-sm">
        <dt className="text-slate-500">Tag</dt>
        <dd>{g.tag ?? "—"}</dd>
        <dt className="text-slate-500">External ID</dt>
        <dd>{g.externalId ?? "—"}</dd>
        <dt className="text-slate-500">Type</dt>
        <dd>
          {g.type}
          {g.type === "circle" && `, ${Math.round(g.geometryRadius)} m`}
        </dd>
        <dt className="text-slate-500">Enabled</dt>
        <dd>{g.enabled ? "yes" : "no"}</dd>
        <dt className="text-slate-500">Dwell after</dt>
        <dd>{g.dwellThreshold ?? 5} min</dd>
        <dt className="text-slate-500">ID</dt>
        <dd className="font-mono text-xs break-all">{g._id}</dd>
      </dl>
      {g.metadata && (
        <pre className="overflow-x-auto rounded bg-slate-50 p-2 text-xs">
          {JSON.stringify(g.metadata, null, 2)}
        </pre>
      )}
      {props.canEdit && (
        <div className="flex flex-wrap gap-2">
          <button
            type="button"
            onClick={props.onEdit}
            className="rounded border border-slate-300 px-3 py-1.5 text-sm"
          >
            Edit geofence
          </button>
          {confirming ? (
            <span className="flex items-center gap-2 text-sm">
              Delete for good?
              <button
                type="button"
                onClick={() => remove.mutate()}
                className="rounded bg-red-700 px-3 py-1.5 text-white"
              >
                Yes, delete
              </button>
              <button type="button" onClick={() => setConfirming(false)} className="underline">
                No
              </button>
            </span>
          ) : (
            <button
              type="button"
              onClick={() => setConfirming(true)}
              className="rounded border border-red-300 px-3 py-1.5 text-sm text-red-700"
            >
              Delete geofence
            </button>
          )}
        </div>
      )}
      <ErrorNote error={remove.error} />
      <h3 className="font-medium">Users inside now</h3>
      {members.isLoading ? (
        <p className="text-sm text-slate-500">Loading…</p>
      ) : members.data?.length ? (
        <ul className="space-y-1 text-sm">
          {members.data.map((u) => (
            <li key={u._id}>{u.userId ?? u.deviceId}</li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-slate-500">Nobody is inside.</p>
      )}
    </section>
  );
}

function UserDetails({ u, onClose }: { u: User; onClose: () => void }) {
  const events = useQuery({
    queryKey: ["user-events", u._id],
    queryFn: () =>
      call<{ events: LocationEvent[] }>(
        "GET",
        `/v1/events?limit=20&userId=${encodeURIComponent(u._id)}`,
      ).then((r) => r.events),
  });
  return (
    <section className="space-y-3" aria-label="User">
      <div className="flex items-start justify-between gap-2">
        <h2 className="text-lg font-semibold">{u.userId ?? u.deviceId}</h2>
        <button type="button" onClick={onClose} className="text-sm text-slate-600 underline">
          Close
        </button>
      </div>
      <dl className="grid grid-cols-[7rem_1fr] gap-y-1 text-sm">
        <dt className="text-slate-500">Device</dt>
        <dd className="break-all">{u.deviceId}</dd>
        <dt className="text-slate-500">Description</dt>
        <dd>{u.description ?? "—"}</dd>
        <dt className="text-slate-500">Location</dt>
        <dd>
          {u.location.coordinates[1].toFixed(5)}, {u.location.coordinates[0].toFixed(5)} (±
          {Math.round(u.locationAccuracy)} m)
        </dd>
        <dt className="text-slate-500">Updated</dt>
        <dd>{new Date(u.updatedAt).toLocaleString()}</dd>
        <dt className="text-slate-500">Inside</dt>
        <dd>{u.geofences.map((g) => g.description).join(", ") || "no geofence"}</dd>
      </dl>
      <h3 className="font-medium">Recent events</h3>
      {events.isLoading ? (
        <p className="text-sm text-slate-500">Loading…</p>
      ) : events.data?.length ? (
        <ul className="space-y-1 text-sm">
          {events.data.map((e) => (
            <li key={e._id}>
              {e.type.replace("user.", "").replaceAll("_", " ")} {e.geofence?.description ?? ""} ·{" "}
              {CONFIDENCE[e.confidence]} · {new Date(e.actualCreatedAt).toLocaleString()}
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-slate-500">No events yet.</p>
      )}
    </section>
  );
}

function Overview(props: {
  tags: string[];
  tag: string;
  setTag: (t: string) => void;
  text: string;
  setText: (t: string) => void;
  shown: Geofence[];
  total: number;
  users: number;
  error: unknown;
  canEdit: boolean;
  borders: boolean;
  setBorders: (on: boolean) => void;
  imported: boolean;
  setImported: (on: boolean) => void;
  onShowArea: (bbox: [number, number, number, number]) => void;
  onPick: (g: Geofence) => void;
}) {
  return (
    <section className="space-y-3" aria-label="Geofences on the map">
      <h2 className="text-lg font-semibold">Geofences</h2>
      <ErrorNote error={props.error} boxed />
      <label className="block space-y-1 text-sm font-medium">
        <span>Tag</span>
        <select value={props.tag} onChange={(e) => props.setTag(e.target.value)} className={input}>
          <option value="">All tags</option>
          {props.tags.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
      </label>
      <label className="block space-y-1 text-sm font-medium">
        <span>Search</span>
        <input
          type="search"
          value={props.text}
          onChange={(e) => props.setText(e.target.value)}
          placeholder="Description or external ID"
          className={input}
        />
      </label>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" checked={props.borders} onChange={(e) => props.setBorders(e.target.checked)} />
        Region borders (countries, US states)
      </label>
      <label className="flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          checked={props.imported}
          onChange={(e) => props.setImported(e.target.checked)}
        />
        Imported places and boundaries (zoom in for places)
      </label>
      {props.imported && <ImportList onShow={props.onShowArea} />}
      <p className="text-sm text-slate-600">
        {props.shown.length} of {props.total} geofences · {props.users} users on the map
      </p>
      {props.canEdit && (
        <p className="text-sm text-slate-600">
          Draw a new geofence with the polygon or circle tool at the top left of the map.
        </p>
      )}
      {props.total === 0 ? (
        <p className="text-sm text-slate-500">No geofences yet.</p>
      ) : (
        <ul className="divide-y divide-slate-100 text-sm">
          {props.shown.slice(0, 200).map((g) => (
            <li key={g._id}>
              <button
                type="button"
                onClick={() => props.onPick(g)}
                className="flex w-full items-center gap-2 py-1.5 text-left hover:bg-slate-50"
              >
                <span className="h-3 w-3 shrink-0 rounded-full" style={{ background: tagColor(g.tag) }} />
                <span className="truncate">{g.description}</span>
                <span className="ml-auto shrink-0 text-xs text-slate-500">{g.tag}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
