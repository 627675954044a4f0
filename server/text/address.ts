import countries from "i18n-iso-countries";

/**
 * The address object geocoding answers with (wire contract): every field optional but `layer`
 * and `confidence`; absent data is left out, never invented.
 */
export interface Address {
  latitude?: number;
  longitude?: number;
  geometry?: { type: "Point"; coordinates: [number, number] };
  country?: string;
  countryCode?: string;
  countryFlag?: string;
  state?: string;
  stateCode?: string;
  county?: string;
  city?: string;
  neighborhood?: string;
  postalCode?: string;
  number?: string;
  street?: string;
  addressLabel?: string;
  formattedAddress?: string;
  placeLabel?: string;
  layer: "address" | "street" | "place" | "postalCode" | "locality" | "county" | "state" | "country";
  confidence: "exact" | "interpolated" | "fallback";
  distance?: number;
}

const flag = (code: string) =>
  String.fromCodePoint(...[...code.toUpperCase()].map((c) => 0x1f1e6 + c.charCodeAt(0) - 65));

/** country, countryCode and countryFlag for an ISO 3166-1 alpha-2 code (and a known name). */
export function countryFields(code: string, name?: string) {
  return {
    country: name ?? countries.getName(code, "en") ?? code,
    countryCode: code,
    ...(/^[A-Z]{2}$/.test(code) && { countryFlag: flag(code) }),
  };
}

/** The point fields of an address. */
export function pointFields(lng: number, lat: number) {
  return {
    latitude: lat,
    longitude: lng,
    geometry: { type: "Point" as const, coordinates: [lng, lat] as [number, number] },
  };
}

/**
 * Countries where the house number follows the street ("Landstrasse 12"); elsewhere it comes
 * first ("12 Main Street"). Where an address's country is unknown, number first.
 */
const STREET_FIRST = new Set(
  (
    "AD AR AT BA BE BG BR CH CL CO CZ DE DK EE ES FI GR HR HU IS IT LI LT LV MX NL NO PE PL PT RO RS " +
    "SE SI SK SM TR VA"
  ).split(" "),
);

/** Countries where the postcode comes before the city ("9490 Vaduz", "98000 Monaco"). */
const POSTCODE_FIRST = new Set([...STREET_FIRST, "FR", "MC", "LU", "DZ", "MA", "TN"]);

/** A house number and its street as the country writes them: "12 Main Street", "Landstrasse 12". */
export function addressLabel(
  number: string,
  street: string | undefined,
  unit?: string,
  countryCode?: string,
) {
  const parts = countryCode && STREET_FIRST.has(countryCode) ? [street, number] : [number, street];
  return [...parts, unit].filter(Boolean).join(" ");
}

/**
 * One line for people, most precise part first, in the country's usual order:
 * "12 Main Street, Springfield, IL 62701, US", "Landstrasse 12, 9490 Vaduz, LI".
 * The state's code stands for the state where there is one.
 */
export function formatAddress(a: Omit<Address, "formattedAddress">): string {
  // A country or a state is named in full: "Germany", "New York, US".
  if (a.layer === "country") return a.country ?? a.countryCode ?? "";
  if (a.layer === "state") return [a.state, a.countryCode].filter(Boolean).join(", ");
  const first = a.addressLabel ?? a.placeLabel ?? a.street ?? a.neighborhood;
  const city = a.city ?? a.county;
  if (a.countryCode && POSTCODE_FIRST.has(a.countryCode)) {
    const locality = [a.postalCode, city].filter(Boolean).join(" ");
    const region = city ? undefined : (a.stateCode ?? a.state);
    return [first, locality, region, a.countryCode].filter(Boolean).join(", ");
  }
  const region = [a.stateCode ?? a.state, a.postalCode].filter(Boolean).join(" ");
  return [first, city, region, a.countryCode].filter(Boolean).join(", ");
}

/**
 * What an address of each layer leads with: the house and street, the street, the place's name,
 * the postal code, the city, the county, the state or the country.
 */
function layerLabel(a: Omit<Address, "formattedAddress">): string | undefined {
  switch (a.layer) {
    case "address":
    case "street":
      return a.street;
    case "place":
      return a.placeLabel;
    case "postalCode":
      return a.postalCode;
    case "locality":
      return a.city;
    case "county":
      return a.county;
    case "state":
      return a.state;
    case "country":
      return a.country ?? a.countryCode;
  }
}

/**
 * An address as the API answers it: with `formattedAddress`, and an `addressLabel` on every layer
 * (Radar's clients read it on each address object), the layer's own name where the address has no
 * house and street of its own.
 */
export function answeredAddress(a: Omit<Address, "formattedAddress">): Address {
  const label = a.addressLabel ?? layerLabel(a);
  return { ...a, ...(label && { addressLabel: label }), formattedAddress: formatAddress(a) };
}
