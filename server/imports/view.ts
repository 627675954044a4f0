import type { BBox } from "../geo/distance";
import { serializePlace } from "../geodata/places";
import { imports } from "../bundles/folder";
import { hasTextIndex } from "../geocode/text-index";
import { features } from "../geodata/features";

/** At most this many places and boundaries in one map view; the answer says when there are more. */
export const VIEW_PLACES = 1000;
export const VIEW_REGIONS = 100;
/** At most this many streets in one map view (the offline basemap asks from street zoom on). */
export const VIEW_STREETS = 5000;

/** The imports the service answers from, with what they hold and where. */
export function importList() {
  return imports().map((file) => {
    const meta = file.meta();
    return {
      name: meta.name ?? "",
      source: meta.source ?? "",
      importedAt: meta.importedAt ?? "",
      /** "osm" (roads, places, addresses, regions) or "gtfs" (a transit feed) */
      kind: meta.kind === "gtfs" ? ("gtfs" as const) : ("osm" as const),
      counts: JSON.parse(meta.counts ?? "{}") as Record<string, number>,
      // Made before the text index had its present layout: not searched by text until re-imported.
      searchable: hasTextIndex(file),
      ...(meta.bbox && { bbox: JSON.parse(meta.bbox) as [number, number, number, number] }),
    };
  });
}

/** The imported places and boundaries in a map view, for the dashboard (GeoJSON-ready). */
export function placesInView(box: BBox) {
  const places = [];
  const regions = [];
  let truncated = false;
  for (const file of imports()) {
    const found = features(file).placesIn(box, VIEW_PLACES + 1 - places.length);
    if (places.length + found.length > VIEW_PLACES) truncated = true;
    places.push(...found.slice(0, VIEW_PLACES - places.length).map(serializePlace));
    for (const r of features(file).regionsIn(box, VIEW_REGIONS - regions.length)) {
      regions.push({
        type: r.region.type,
        name: r.region.name,
        ...(r.region.code && { code: r.region.code }),
        geometry: {
          type: "MultiPolygon" as const,
          coordinates: r.polygons.map((p) =>
            p.map((ring) =>
              Array.from({ length: ring.length / 2 }, (_, i) => [ring[2 * i]!, ring[2 * i + 1]!]),
            ),
          ),
        },
      });
    }
  }
  return { places, regions, truncated };
}

/** The roads the offline basemap draws when zoomed out (OSM highway values). */
export const MAIN_ROADS = ["motorway", "trunk", "primary", "secondary", "tertiary"] as const;

/**
 * The imported streets in a map view, for the dashboard's offline basemap: name, kind (the OSM
 * highway value) and line as flat [lng, lat, …] rounded to about 10 cm; only the main roads
 * when `main` (a view zoomed out).
 */
export function streetsInView(box: BBox, main = false) {
  const streets: { name: string; kind: string; line: number[] }[] = [];
  let truncated = false;
  for (const file of imports()) {
    const found = features(file).streetsIn(
      box,
      VIEW_STREETS + 1 - streets.length,
      main ? MAIN_ROADS : undefined,
    );
    if (streets.length + found.length > VIEW_STREETS) truncated = true;
    for (const s of found.slice(0, VIEW_STREETS - streets.length)) {
      streets.push({
        name: s.name,
        kind: s.kind,
        line: Array.from(s.line, (v) => Math.round(v * 1e6) / 1e6),
      });
    }
  }
  return { streets, truncated };
}
