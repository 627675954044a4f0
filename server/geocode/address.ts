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
 * One line for people, most precise part first: "12 Main Street, Springfield, IL 62701, US".
 * The state's code stands for the state where there is one.
 */
export function formatAddress(a: Omit<Address, "formattedAddress">): string {
  const region = [a.stateCode ?? a.state, a.postalCode].filter(Boolean).join(" ");
  const parts = [a.addressLabel ?? a.street ?? a.neighborhood, a.city ?? a.county, region, a.countryCode];
  return parts.filter(Boolean).join(", ");
}
