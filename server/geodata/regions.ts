import countries from "i18n-iso-countries";
import { type Region, type RegionType, embeddedRegionsAt } from "../regions/embedded";
import { embeddedPostalCodeAt } from "../regions/postal";
import { features, type StoredRegion } from "./features";
import { postcodeFromAddresses } from "./postcodes";
import { imports } from "../bundles/folder";

/**
 * The regions of a point, as context and tracked users carry them: imported boundaries first
 * (the smallest of each type when imports overlap), embedded data otherwise (docs/data.md). A
 * postal code without an imported boundary comes from the imported addresses' postcodes
 * (server/geodata/postcodes.ts), else, in the US, from the embedded ZIP centroids.
 * DMA needs data no redistributable package has: it is answered only from an imported
 * `dma` region, which an operator brings as GeoJSON (server/geodata/geojson-import.ts).
 */

export const REGION_TYPES = ["country", "state", "postalCode", "dma"] as const satisfies RegionType[];
export type Regions = Partial<Record<(typeof REGION_TYPES)[number], Region>>;

/** The smallest imported region of each type containing the point (county and city included). */
export function importedRegionsAt(lng: number, lat: number): Partial<Record<string, StoredRegion>> {
  const found: Partial<Record<string, StoredRegion>> = {};
  for (const file of imports()) {
    for (const r of features(file).regionsAt(lng, lat)) {
      const current = found[r.type];
      if (!current || r.area < current.area) found[r.type] = r;
    }
  }
  return found;
}

/**
 * Whether an import holds the exact boundary of this country around the point's place (its
 * extract's box holds the point) and the point is outside it: the coarse embedded shapes put
 * parts of France in Monaco, whose boundary the Monaco extract holds.
 */
function refuted(country: Region, lng: number, lat: number): boolean {
  if (!country.code) return false;
  return imports().some((file) => {
    const { codes, extent } = features(file).importedCountries();
    return (
      codes.has(country.code!) &&
      !!extent &&
      lng >= extent.minLng &&
      lng <= extent.maxLng &&
      lat >= extent.minLat &&
      lat <= extent.maxLat
    );
  });
}

/** Bearings and distances at which a refuted country's neighbour is looked for. */
const AROUND_M = [250, 500, 1000, 2000, 4000, 8000];
const BEARINGS = [0, 45, 90, 135, 180, 225, 270, 315];

/**
 * Answers of nearestCountry by ~100 m cell, per set of imports (a new import forgets them): it
 * looks up to 48 points, and a user tracked along such a coast asks it on every update.
 */
const nearestByCell = new WeakMap<object, Map<string, Region | undefined>>();
const NEAREST_REMEMBERED = 20_000;

/**
 * The embedded country nearest the point, other than `not` (and not refuted there itself): the
 * first found on rings of growing radius around it. None within 8 km.
 */
function nearestCountry(not: Region | undefined, lng: number, lat: number): Region | undefined {
  const generation = imports();
  let memo = nearestByCell.get(generation);
  if (!memo) nearestByCell.set(generation, (memo = new Map()));
  const key = `${Math.round(lng * 1000)},${Math.round(lat * 1000)},${not?.code ?? ""}`;
  if (memo.has(key)) return memo.get(key);
  if (memo.size >= NEAREST_REMEMBERED) memo.clear();
  const found = searchNearestCountry(not, lng, lat);
  memo.set(key, found);
  return found;
}

function searchNearestCountry(not: Region | undefined, lng: number, lat: number): Region | undefined {
  const kLat = 1 / 111_320;
  const kLng = kLat / Math.max(0.01, Math.cos((lat * Math.PI) / 180));
  for (const m of AROUND_M) {
    for (const b of BEARINGS) {
      const r = (b * Math.PI) / 180;
      const [x, y] = [lng + Math.sin(r) * m * kLng, lat + Math.cos(r) * m * kLat];
      const c = embeddedRegionsAt(x, y).country;
      if (c && c.code !== not?.code && !refuted(c, lng, lat)) return c;
    }
  }
  return undefined;
}

/**
 * `onLand`: the caller knows the point is on land (an address, a street, a place): where the
 * coarse embedded coast says sea, it still gets the nearest country.
 */
export function regionsAt(
  lng: number,
  lat: number,
  imported = importedRegionsAt(lng, lat),
  onLand = false,
  tagged?: string,
): Regions {
  const found: Regions = {};
  for (const type of REGION_TYPES) {
    const r = imported[type];
    if (r) found[type] = { type, name: r.name, ...(r.code && { code: r.code }) };
  }
  // No imported boundary: an address's own `addr:country` is the next best word on its country.
  const named = tagged && countries.getName(tagged, "en");
  if (!found.country && named) found.country = { type: "country", name: named, code: tagged };
  if (!found.country || !found.state) {
    const embedded = embeddedRegionsAt(lng, lat);
    if (!found.country) {
      const coarse = embedded.country;
      if (coarse && !refuted(coarse, lng, lat)) found.country = coarse;
      // Refuted, or at sea in the coarse shapes while an imported town or county says it is land
      // (Natural Earth's coast cuts off Roquebrune's seafront): the nearest other country.
      else if (coarse || onLand || imported.city || imported.county || imported.state)
        found.country = nearestCountry(coarse, lng, lat);
    }
    // An embedded state only where the country agrees (imported Monaco is not in a US state).
    if (!found.state && embedded.state && found.country?.code === "US") found.state = embedded.state;
  }
  if (!found.postalCode) {
    const code = postcodeFromAddresses(lng, lat, imported.city?.name);
    if (code) found.postalCode = { type: "postalCode", name: code, code };
  }
  if (!found.postalCode && found.country?.code === "US") found.postalCode = embeddedPostalCodeAt(lng, lat);
  for (const type of REGION_TYPES) if (!found[type]) delete found[type];
  return found;
}
