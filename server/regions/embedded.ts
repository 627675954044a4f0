import { forgetProcessOnce, processOnce } from "../process-once";
import Flatbush from "flatbush";
import countries from "i18n-iso-countries";
import type { Feature, MultiPolygon, Polygon } from "geojson";
import { feature } from "topojson-client";
import type { GeometryCollection, Topology } from "topojson-specification";
import { readFileSync } from "node:fs";
import stateNamesByCode from "us-state-codes/states.json";
import type { Position } from "../geo/distance";
import { packageFile } from "./package-file";
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

const USPS_BY_NAME = new Map(
  Object.entries(stateNamesByCode as Record<string, string>).map(([code, name]) => [name, code]),
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
        const code = USPS_BY_NAME.get(name);
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

/** The embedded country (and US state) that contain a point; none at sea. */
export function embeddedRegionsAt(lng: number, lat: number): { country?: Region; state?: Region } {
  const { countries: c, states } = load();
  const found = find(c, lng, lat);
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
