import { importedRegionsAt, regionsAt } from "../geodata/regions";
import { cityAt, neighborhoodAt } from "../regions/cities";
import { type Address, countryFields } from "../text/address";

/**
 * The areas a point is in, as address fields (no point, no layer); `onLand` when the point is an
 * address, a street or a place: it then has a country (geodata/regions.ts); `tagged`: an address's
 * own `addr:country`, believed where no imported boundary says otherwise.
 */
export function areaFields(lng: number, lat: number, onLand = false, tagged?: string): Partial<Address> {
  const imported = importedRegionsAt(lng, lat);
  const regions = regionsAt(lng, lat, imported, onLand, tagged);
  const countryCode = regions.country?.code;
  // An imported city boundary wins; a GeoNames city only in the country the point is in (none at sea).
  const embeddedCity = !imported.city && countryCode ? cityAt(lng, lat) : undefined;
  const city =
    imported.city?.name ?? (embeddedCity?.countryCode === countryCode ? embeddedCity?.name : undefined);
  const neighborhood = countryCode ? neighborhoodAt(lng, lat) : undefined;
  return {
    ...(regions.country &&
      (countryCode ? countryFields(countryCode, regions.country.name) : { country: regions.country.name })),
    ...(regions.state && { state: regions.state.name }),
    ...(regions.state?.code && { stateCode: regions.state.code }),
    ...(imported.county && { county: imported.county.name }),
    ...(city && { city }),
    ...(neighborhood && neighborhood.countryCode === countryCode && { neighborhood: neighborhood.name }),
    ...(regions.postalCode && { postalCode: regions.postalCode.code ?? regions.postalCode.name }),
  };
}

const remembered = new WeakMap<object, Map<string, Partial<Address>>>();
const REMEMBERED = 20_000;

/**
 * areaFields for the points of text-search answers, remembered per set of imports (a new import
 * forgets them): the same streets and places come back keystroke after keystroke.
 */
export function areaFieldsOf(
  lng: number,
  lat: number,
  generation: object,
  tagged?: string,
): Partial<Address> {
  let memo = remembered.get(generation);
  if (!memo) remembered.set(generation, (memo = new Map()));
  const key = `${lng},${lat},${tagged ?? ""}`;
  let fields = memo.get(key);
  if (!fields) {
    if (memo.size >= REMEMBERED) memo.clear();
    // What text search finds (addresses, streets, places, towns) is on land.
    memo.set(key, (fields = areaFields(lng, lat, true, tagged)));
  }
  return fields;
}
