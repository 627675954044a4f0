"use client";

import { ErrorNote } from "@/components/ui/error-note";
import type { Geofence } from "@/lib/types";
import { tagColor } from "../map/colors";
import { ImportList } from "../map/imported-layer";
import { MAP_LIMIT, type MapData } from "./use-map-data";

const input = "w-full rounded border border-slate-300 px-2 py-1.5 text-sm";

/** How many geofences the list beside the map names (the map draws all it loaded). */
const LISTED = 200;

/** The map's optional layers. */
export interface Layers {
  borders: boolean;
  imported: boolean;
}

export const NO_LAYERS: Layers = { borders: false, imported: false };

/** The tag chosen and the search text, with the tags to choose from. */
export interface OverviewFilter {
  tags: string[];
  tag: string;
  setTag: (t: string) => void;
  text: string;
  setText: (t: string) => void;
}

/**
 * Beside the map when nothing is open: the tag filter, a search that finds geofences anywhere
 * (choosing one moves the map there), the layers, and what is in view, with what is not shown.
 */
export function MapOverview(props: {
  filter: OverviewFilter;
  /** the geofences in view (for the tag, matching the text) */
  inView: Geofence[];
  /** what the map loaded: whether more were there, the matches anywhere, the users, the error */
  data: Pick<MapData, "geofencesMore" | "matches" | "users" | "usersMore" | "error">;
  canEdit: boolean;
  layers: Layers;
  setLayers: (layers: Layers) => void;
  onShowArea: (bbox: [number, number, number, number]) => void;
  onPick: (g: Geofence) => void;
}) {
  const searching = props.filter.text.trim() !== "";
  const { geofencesMore: inViewMore, usersMore, matches } = props.data;
  const users = props.data.users.length;
  const limit = MAP_LIMIT.toLocaleString("en");
  return (
    <section className="space-y-3" aria-label="Geofences on the map">
      <h2 className="text-lg font-semibold">Geofences</h2>
      <ErrorNote error={props.data.error} boxed />
      <FilterFields filter={props.filter} />
      <LayerToggles layers={props.layers} setLayers={props.setLayers} onShowArea={props.onShowArea} />
      <p className="text-sm text-slate-600">
        {counted(props.inView.length, inViewMore, "geofence")} in view · {counted(users, usersMore, "user")}{" "}
        on the map
      </p>
      {(inViewMore || usersMore) && (
        <p role="note" className="text-sm text-amber-700">
          More than {limit} {inViewMore ? "geofences" : "users"}
          {inViewMore && usersMore && " and users"} are in this view; the newest {limit} are shown. Zoom in to
          see them all.
        </p>
      )}
      {props.canEdit && (
        <p className="text-sm text-slate-600">
          Draw a new geofence with the polygon or circle tool at the top left of the map.
        </p>
      )}
      <GeofenceList
        searching={searching}
        listed={searching ? (matches.data ?? []) : props.inView}
        matches={matches}
        onPick={props.onPick}
      />
    </section>
  );
}

function FilterFields({ filter }: { filter: OverviewFilter }) {
  return (
    <>
      <label className="block space-y-1 text-sm font-medium">
        <span>Tag</span>
        <select value={filter.tag} onChange={(e) => filter.setTag(e.target.value)} className={input}>
          <option value="">All tags</option>
          {filter.tags.map((t) => (
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
          value={filter.text}
          onChange={(e) => filter.setText(e.target.value)}
          placeholder="Description or external ID"
          className={input}
        />
      </label>
    </>
  );
}

function LayerToggles({
  layers,
  setLayers,
  onShowArea,
}: {
  layers: Layers;
  setLayers: (layers: Layers) => void;
  onShowArea: (bbox: [number, number, number, number]) => void;
}) {
  return (
    <>
      <label className="flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          checked={layers.borders}
          onChange={(e) => setLayers({ ...layers, borders: e.target.checked })}
        />
        Region borders (countries, US states)
      </label>
      <label className="flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          checked={layers.imported}
          onChange={(e) => setLayers({ ...layers, imported: e.target.checked })}
        />
        Imported places and boundaries (zoom in for places)
      </label>
      {layers.imported && <ImportList onShow={onShowArea} />}
    </>
  );
}

/** "1 geofence", "2 geofences", "1,000+ geofences" (more than the count are there). */
const counted = (n: number, more: boolean, noun: string) =>
  `${n.toLocaleString("en")}${more ? "+" : ""} ${noun}${n === 1 && !more ? "" : "s"}`;

/** The geofences in view, or matching the search anywhere, the first LISTED of them. */
function GeofenceList({
  searching,
  listed,
  matches,
  onPick,
}: {
  searching: boolean;
  listed: Geofence[];
  matches: { more: boolean; loading: boolean };
  onPick: (g: Geofence) => void;
}) {
  return (
    <>
      {searching && <h3 className="text-sm font-medium">Matches anywhere</h3>}
      {searching && matches.loading ? (
        <p className="text-sm text-slate-500">Searching…</p>
      ) : listed.length === 0 ? (
        <p className="text-sm text-slate-500">
          {searching ? "No geofence matches." : "No geofences in view: move the map or search."}
        </p>
      ) : (
        <ul className="divide-y divide-slate-100 text-sm">
          {listed.slice(0, LISTED).map((g) => (
            <li key={g._id}>
              <button
                type="button"
                onClick={() => onPick(g)}
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
      {(listed.length > LISTED || (searching && matches.more)) && (
        <p className="text-xs text-slate-500">
          The first {Math.min(listed.length, LISTED)} are listed; {searching ? "type more" : "zoom in"} to
          narrow.
        </p>
      )}
    </>
  );
}
