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

export function regionsAt(lng: number, lat: number, imported = importedRegionsAt(lng, lat)): Regions {
  const found: Regions = {};
  for (const type of REGION_TYPES) {
    const r = imported[type];
    if (r) found[type] = { type, name: r.name, ...(r.code && { code: r.code }) };
  }
  if (!found.country || !found.state) {
    const embedded = embeddedRegionsAt(lng, lat);
    found.country ??= embedded.country;
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
