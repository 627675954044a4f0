import { type Region, type RegionType, embeddedRegionsAt } from "../regions/embedded";
import { embeddedPostalCodeAt } from "../regions/postal";
import { imports } from "./store";

/**
 * The regions of a point, as context and tracked users carry them: imported boundaries first
 * (the smallest of each type when imports overlap), embedded data otherwise (docs/data.md).
 * DMA needs data no redistributable package has: it is answered only from an imported
 * `dma` region (none of the OSM imports makes one).
 */

export const REGION_TYPES = ["country", "state", "postalCode", "dma"] as const satisfies RegionType[];
export type Regions = Partial<Record<(typeof REGION_TYPES)[number], Region>>;

export function regionsAt(lng: number, lat: number): Regions {
  const found: Regions = {};
  const areas: Partial<Record<string, number>> = {};
  for (const file of imports()) {
    for (const r of file.regionsAt(lng, lat)) {
      const type = r.type as keyof Regions;
      if (!(REGION_TYPES as readonly string[]).includes(type)) continue;
      if (found[type] && areas[type]! <= r.area) continue;
      found[type] = { type, name: r.name, ...(r.code && { code: r.code }) };
      areas[type] = r.area;
    }
  }
  if (!found.country || !found.state) {
    const embedded = embeddedRegionsAt(lng, lat);
    found.country ??= embedded.country;
    // An embedded state only where the country agrees (imported Monaco is not in a US state).
    if (!found.state && embedded.state && found.country?.code === "US") found.state = embedded.state;
  }
  if (!found.postalCode && found.country?.code === "US") found.postalCode = embeddedPostalCodeAt(lng, lat);
  for (const type of REGION_TYPES) if (!found[type]) delete found[type];
  return found;
}
