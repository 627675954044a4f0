import { importedRegionsAt, regionsAt } from "../geodata/regions";
import { cityAt, neighborhoodAt } from "../regions/cities";
import { type Address, countryFields } from "./address";

/** The areas a point is in, as address fields (no point, no layer). */
export function areaFields(lng: number, lat: number): Partial<Address> {
  const imported = importedRegionsAt(lng, lat);
  const regions = regionsAt(lng, lat, imported);
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
