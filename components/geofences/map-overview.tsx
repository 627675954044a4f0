"use client";

import { ErrorNote } from "@/components/ui/error-note";
import type { Geofence } from "@/lib/types";
import { tagColor } from "../map/colors";
import { ImportList } from "../map/imported-layer";

const input = "w-full rounded border border-slate-300 px-2 py-1.5 text-sm";

/** How many geofences the list beside the map names (the map draws all it loaded). */
const LISTED = 200;

/**
 * Beside the map when nothing is open: the tag filter, a search that finds geofences anywhere
 * (choosing one moves the map there), the layers, and what is in view, with what is not shown.
 */
export function MapOverview(props: {
  tags: string[];
  tag: string;
  setTag: (t: string) => void;
  text: string;
  setText: (t: string) => void;
  /** the geofences in view (for the tag) and whether more are there than were loaded */
  inView: Geofence[];
  inViewMore: boolean;
  /** the geofences anywhere matching the text, when there is text */
  matches: { data?: Geofence[]; more: boolean; loading: boolean };
  users: number;
  usersMore: boolean;
  limit: number;
  error: unknown;
  canEdit: boolean;
  borders: boolean;
  setBorders: (on: boolean) => void;
  imported: boolean;
  setImported: (on: boolean) => void;
  onShowArea: (bbox: [number, number, number, number]) => void;
  onPick: (g: Geofence) => void;
}) {
  const searching = props.text.trim() !== "";
  const listed = searching ? (props.matches.data ?? []) : props.inView;
  const limit = props.limit.toLocaleString("en");
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
        {props.inView.length.toLocaleString("en")}
        {props.inViewMore && "+"} geofences in view · {props.users.toLocaleString("en")}
        {props.usersMore && "+"} users on the map
      </p>
      {(props.inViewMore || props.usersMore) && (
        <p role="note" className="text-sm text-amber-700">
          More than {limit} {props.inViewMore ? "geofences" : "users"}
          {props.inViewMore && props.usersMore && " and users"} are in this view; the newest {limit} are
          shown. Zoom in to see them all.
        </p>
      )}
      {props.canEdit && (
        <p className="text-sm text-slate-600">
          Draw a new geofence with the polygon or circle tool at the top left of the map.
        </p>
      )}
      {searching && <h3 className="text-sm font-medium">Matches anywhere</h3>}
      {searching && props.matches.loading ? (
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
      {(listed.length > LISTED || (searching && props.matches.more)) && (
        <p className="text-xs text-slate-500">
          The first {Math.min(listed.length, LISTED)} are listed; {searching ? "type more" : "zoom in"} to
          narrow.
        </p>
      )}
    </section>
  );
}
