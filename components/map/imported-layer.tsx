"use client";

import { useQuery } from "@tanstack/react-query";
import type { Feature, FeatureCollection, MultiPolygon } from "geojson";
import { CircleMarker, GeoJSON, Tooltip } from "react-leaflet";
import { call } from "@/lib/api-client";
import { useImportView } from "./use-import-view";
import type { Place, RegionObject } from "@/lib/types";

export const PLACE_COLOR = "#b45309";
const IMPORTED_BORDER = "#0f766e";
/** Below this zoom a view holds too many places to draw; only boundaries are shown. */
const MIN_PLACES_ZOOM = 12;

interface View {
  places: Place[];
  regions: (RegionObject & { geometry: MultiPolygon })[];
  truncated: boolean;
}

/**
 * Imported data on the map (`npm run import`): boundaries as outlines and, zoomed in, places as
 * amber dots with their names. Loads what the view holds, again after every move.
 */
export function ImportedLayer() {
  const current = useImportView(4);
  const data = useQuery({
    queryKey: ["geodata", current.bbox],
    queryFn: () => call<View>("GET", `/api/geodata/view?bbox=${current.bbox}`),
    placeholderData: (previous) => previous,
  });
  const regions: FeatureCollection = {
    type: "FeatureCollection",
    features: (data.data?.regions ?? []).map((r): Feature => ({
      type: "Feature",
      properties: { name: r.name, type: r.type },
      geometry: r.geometry,
    })),
  };
  return (
    <>
      <GeoJSON
        key={current.bbox + regions.features.length}
        data={regions}
        interactive={false}
        style={{ color: IMPORTED_BORDER, weight: 1.5, fill: false, dashArray: "6 4" }}
      />
      {current.zoom >= MIN_PLACES_ZOOM &&
        data.data?.places.map((p) => (
          <CircleMarker
            key={p._id}
            center={[p.location.coordinates[1], p.location.coordinates[0]]}
            radius={5}
            pathOptions={{ color: PLACE_COLOR, weight: 1, fillOpacity: 0.8 }}
          >
            <Tooltip>
              <span className="font-medium">{p.name}</span> · {p.categories[0]}
              {p.chain ? ` · ${p.chain.name}` : ""}
            </Tooltip>
          </CircleMarker>
        ))}
    </>
  );
}

interface ImportInfo {
  name: string;
  source: string;
  importedAt: string;
  counts: Record<string, number>;
  bbox?: [number, number, number, number];
  /** false: made by an older version, not searched by text until imported again */
  searchable: boolean;
}

/** The imports, each with what it holds and a button that shows its area on the map. */
export function ImportList({ onShow }: { onShow: (bbox: [number, number, number, number]) => void }) {
  const list = useQuery({
    queryKey: ["imports"],
    queryFn: () => call<{ imports: ImportInfo[] }>("GET", "/api/geodata").then((r) => r.imports),
  });
  if (list.isLoading) return <p className="text-sm text-slate-500">Loading imports…</p>;
  if (!list.data?.length) {
    return (
      <p className="text-sm text-slate-500">
        Nothing imported yet: <code>npm run import -- extract.osm.pbf</code> (docs/data.md).
      </p>
    );
  }
  return (
    <ul aria-label="Imports" className="space-y-1 text-sm">
      {list.data.map((i) => (
        <li key={i.name} className="flex items-center justify-between gap-2">
          <span>
            <span className="font-medium">{i.name}</span>{" "}
            <span className="text-slate-500">
              · {i.counts.places ?? 0} places · {i.counts.addresses ?? 0} addresses
            </span>
            {!i.searchable && (
              <span className="block text-xs text-amber-700">
                Not searchable by text: import it again (npm run import) for the search box.
              </span>
            )}
          </span>
          {i.bbox && (
            <button
              type="button"
              onClick={() => onShow(i.bbox!)}
              className="rounded border border-slate-300 px-2 py-0.5"
              aria-label={`Show ${i.name}`}
            >
              Show
            </button>
          )}
        </li>
      ))}
    </ul>
  );
}

/** Longitudes outside ±180 (a map scrolled around the world) and latitudes past the poles. */
