import { forgetProcessOnce, processOnce } from "../process-once";
import Flatbush from "flatbush";
import { iso1A2Code } from "@rapideditor/country-coder";
import countries from "i18n-iso-countries";
import type { Feature, MultiPolygon, Polygon } from "geojson";
import { feature } from "topojson-client";
import type { GeometryCollection, Topology } from "topojson-specification";
import { readFileSync } from "node:fs";
import type { Position } from "../geo/distance";
import { packageFile } from "./package-file";
import { usStateNames } from "./us-states";
import { packedBBox, positionsOf } from "../geo/rings";
import { type BandedRing, bandRing, pointInBandedRing, ringAreaAndCentroid } from "../geo/polygon";

/**
 * The regions every install knows without an import (docs/data.md): countries from Natural
 * Earth (world-atlas, 1:10m) and US states from the US Census Bureau (us-atlas, 1:10m), held in
 * memory with a Flatbush index over each polygon's bounding box.
 */

export type RegionType = "country" | "state" | "postalCode" | "dma";

/** A region as users, events and context carry it (wire contract: {_id?, type, name, code}). */
export interface Region {
  type: RegionType;
  name: string;
  /** ISO 3166-1 alpha-2 for countries, USPS code for US states; absent when there is none */
  code?: string;
}

export interface Part {
  region: Region;
  /** outer ring first, then holes; each packed as [lng0, lat0, lng1, lat1, …] and banded */
  rings: BandedRing[];
}

interface Layer {
  parts: Part[];
  index: Flatbush;
}

function polygonsOf(f: Feature): Position[][][] {
  const g = f.geometry as Polygon | MultiPolygon;
  if (g.type === "Polygon") return [g.coordinates as Position[][]];
  if (g.type === "MultiPolygon") return g.coordinates as Position[][][];
  return [];
}

function buildLayer(features: Feature[], regionOf: (f: Feature) => Region | null, maxBands: number): Layer {
  const parts: Part[] = [];
  for (const f of features) {
    const region = regionOf(f);
    if (!region) continue;
    for (const rings of polygonsOf(f)) {
      if (rings[0]?.length)
        parts.push({ region, rings: rings.map((r) => bandRing(Float64Array.from(r.flat()), maxBands)) });
    }
  }
  const index = new Flatbush(parts.length);
  for (const { rings } of parts) {
    const { minLng, minLat, maxLng, maxLat } = packedBBox([[rings[0]!.coords]]);
    index.add(minLng, minLat, maxLng, maxLat);
  }
  index.finish();
  return { parts, index };
}

/**
 * A package's TopoJSON as GeoJSON features. Read from the file rather than imported, so the
 * topology is garbage once the packed rings are built (imported, it would stay in memory).
 */
function featuresOf(file: string, object: string): Feature[] {
  const t = JSON.parse(readFileSync(packageFile(file), "utf8")) as Topology<
    Record<string, GeometryCollection>
  >;
  const collection = feature(t, t.objects[object]!) as unknown as { features: Feature[] };
  return collection.features;
}

const uspsByName = () =>
  processOnce(
    "usps-by-state-name",
    () => new Map(Object.entries(usStateNames()).map(([code, name]) => [name, code])),
  );

const US: Region = {
  type: "country",
  name: countries.getName("US", "en") ?? "United States of America",
  code: "US",
};

/** Bands per ring (server/geo/polygon.ts); the benchmark's baseline loads with 1. */
export const MAX_BANDS = 128;

/** The countries' and US states' layers, built once per process (server/process-once.ts). */
const load = () =>
  processOnce("embedded-regions", () => buildLayers(MAX_BANDS), "the embedded countries and US states");

function buildLayers(maxBands: number): { countries: Layer; states: Layer } {
  return {
    countries: buildLayer(
      featuresOf("world-atlas/countries-10m.json", "countries"),
      (f) => {
        const name = (f.properties as { name?: string } | null)?.name;
        if (!name) return null;
        // Natural Earth's ids are ISO 3166-1 numeric codes; a few areas (Kosovo, N. Cyprus…) have none.
        const code = f.id !== undefined ? countries.numericToAlpha2(String(f.id)) : undefined;
        return {
          type: "country",
          name: (code && countries.getName(code, "en")) || name,
          ...(code && { code }),
        };
      },
      maxBands,
    ),
    states: buildLayer(
      featuresOf("us-atlas/states-10m.json", "states"),
      (f) => {
        const name = (f.properties as { name?: string } | null)?.name;
        if (!name) return null;
        const code = uspsByName().get(name);
        return { type: "state", name, ...(code && { code }) };
      },
      maxBands,
    ),
  };
}

function find(layer: Layer, lng: number, lat: number): Region | undefined {
  for (const i of layer.index.search(lng, lat, lng, lat)) {
    const { region, rings } = layer.parts[i]!;
    if (!pointInBandedRing(lng, lat, rings[0]!)) continue;
    if (rings.slice(1).some((hole) => pointInBandedRing(lng, lat, hole))) continue;
    return region;
  }
  return undefined;
}

/** Meters off Natural Earth's coast that still count as the shore of the country there. */
const SHORE_M = 1500;
const SHORE_BEARINGS = [0, 45, 90, 135, 180, 225, 270, 315];

const byCode = processOnce("embedded-countries-by-code", () => new Map<string, Region>());

/** The country of an ISO code, named as Natural Earth's layer names it when it has it. */
function countryOf(code: string, layer: Layer): Region {
  let region = byCode.get(code);
  if (!region) {
    const named = layer.parts.find((p) => p.region.code === code)?.region;
    region = named ?? { type: "country", name: countries.getName(code, "en") ?? code, code };
    byCode.set(code, region);
  }
  return region;
}

/** Whether Natural Earth has land of `code` within SHORE_M of the point. */
function nearShoreOf(layer: Layer, code: string, lng: number, lat: number): boolean {
  const kLat = SHORE_M / 111_320;
  const kLng = kLat / Math.max(0.01, Math.cos((lat * Math.PI) / 180));
  return SHORE_BEARINGS.some((b) => {
    const r = (b * Math.PI) / 180;
    return find(layer, lng + Math.sin(r) * kLng, lat + Math.cos(r) * kLat)?.code === code;
  });
}

/**
 * Which country a point is in: Natural Earth's 1:10m shapes say where land is, and
 * country-coder's borders (OSM's, maintained, small and fast to ask) say whose it is, since
 * at 1:10m Natural Earth puts Beausoleil in Monaco, Büsingen in Switzerland and Pas de la Casa in
 * France (48 of 48 border towns right against 35 of 48: docs/data.md). Over water country-coder's
 * borders are rough (they reach hundreds of km out to sea), so where Natural Earth says sea its
 * answer counts only within SHORE_M of that country's land (a coast too coarse for a small town).
 */
function countryAt(layer: Layer, lng: number, lat: number): Region | undefined {
  const coarse = find(layer, lng, lat);
  const code = iso1A2Code([lng, lat], { level: "territory" });
  // Codes outside ISO 3166-1 (Kosovo's XK) are not invented here: Natural Earth's region stays.
  if (!code || code === coarse?.code || !countries.isValid(code)) return coarse;
  if (coarse) return countryOf(code, layer);
  return nearShoreOf(layer, code, lng, lat) ? countryOf(code, layer) : undefined;
}

/** The embedded country (and US state) that contain a point; none at sea. */
export function embeddedRegionsAt(lng: number, lat: number): { country?: Region; state?: Region } {
  const { countries: c, states } = load();
  const found = countryAt(c, lng, lat);
  const state = !found || found.code === "US" ? find(states, lng, lat) : undefined;
  // The Census shapes reach a little past Natural Earth's coastline: a state implies its country.
  const country = found ?? (state ? US : undefined);
  return { ...(country && { country }), ...(state && { state }) };
}

/** Loads and indexes the data now rather than on the first request. */
export function preloadEmbeddedRegions(): void {
  load();
}

/** For the benchmark: loads again, with at most `maxBands` latitude bands per ring. */
export function reloadEmbeddedRegions(maxBands: number): void {
  forgetProcessOnce("embedded-regions");
  processOnce("embedded-regions", () => buildLayers(maxBands));
}

const centers = processOnce("country-centers", () => new Map<string, Position | undefined>());

/**
 * A representative point of a country (or, with `layer` "states", a US state by its USPS code):
 * the centroid of its largest polygon's outer ring (computed once each: for the US or Russia it
 * takes milliseconds).
 */
export function countryCenter(
  code: string,
  layer: "countries" | "states" = "countries",
): Position | undefined {
  const key = `${layer}:${code}`;
  if (!centers.has(key)) centers.set(key, computeCenter(code, layer));
  return centers.get(key);
}

function computeCenter(code: string, layer: "countries" | "states"): Position | undefined {
  let best: { area: number; centroid: Position } | undefined;
  for (const part of load()[layer].parts) {
    if (part.region.code !== code) continue;
    const ac = ringAreaAndCentroid(positionsOf(part.rings[0]!.coords));
    if (!best || ac.area > best.area) best = ac;
  }
  return best?.centroid;
}
