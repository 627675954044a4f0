import { type AddressRecord } from "../geodata/feature-records";
import { features } from "../geodata/features";
import { type Position, bboxAround, haversine } from "../geo/distance";
import { nearestOnPath } from "../geo/polygon";
import { positionsOf } from "../geo/rings";
import { placeAt } from "../geodata/places";
import { imports } from "../bundles/folder";
import { type Address, addressLabel, answeredAddress, pointFields } from "../text/address";
import { areaFields } from "./areas";

/**
 * Reverse geocoding (docs/api.md#reverse-geocoding): the address at a coordinate, from what the
 * service knows there. With an OSM import, the nearest house number within 100 m, else the
 * nearest named street within 50 m; anywhere, the areas the point lies in: imported boundaries
 * first, then the embedded countries, US states and postal codes, and the nearest GeoNames city
 * (server/regions/cities.ts). The answer's `layer` is its most precise part.
 */

/** How far the nearest house number may be for the answer to be that address. */
export const ADDRESS_REACH_M = 100;
/** How far the nearest street may be for the answer to name it. */
export const STREET_REACH_M = 50;

interface Found<T> {
  item: T;
  distance: number;
  position: Position;
}

function nearestAddress(lng: number, lat: number) {
  let best: Found<AddressRecord> | undefined;
  for (const file of imports()) {
    for (const a of features(file).addressesIn(bboxAround(lng, lat, ADDRESS_REACH_M))) {
      const distance = haversine(lng, lat, a.lng, a.lat);
      if (distance <= ADDRESS_REACH_M && (!best || distance < best.distance)) {
        best = { item: a, distance, position: [a.lng, a.lat] };
      }
    }
  }
  return best;
}

function nearestStreet(lng: number, lat: number) {
  let best: Found<string> | undefined;
  for (const file of imports()) {
    for (const s of features(file).streetsIn(bboxAround(lng, lat, STREET_REACH_M))) {
      const { distance, position } = nearestOnPath(lng, lat, positionsOf(s.line));
      if (distance <= STREET_REACH_M && (!best || distance < best.distance)) {
        best = { item: s.name, distance, position };
      }
    }
  }
  return best;
}

const round = (meters: number) => Math.round(meters * 10) / 10;

/** The addresses at a coordinate: one, or none where nothing is known (open sea). */
export function reverseGeocode([lng, lat]: Position): Address[] {
  const address = nearestAddress(lng, lat);
  const street = address ? undefined : nearestStreet(lng, lat);
  // Near an address or a street the point is on land: it has a country even where the coarse
  // embedded coast says sea.
  const areas = areaFields(lng, lat, !!(address || street), address?.item.country);
  let result: Omit<Address, "formattedAddress">;
  if (address) {
    const a = address.item;
    result = {
      ...pointFields(...address.position),
      ...areas,
      ...(a.city && { city: a.city }),
      ...(a.postcode && { postalCode: a.postcode }),
      number: a.number,
      ...(a.street && { street: a.street }),
      addressLabel: addressLabel(a.number, a.street, a.unit, areas.countryCode),
      layer: "address",
      confidence: "exact",
      distance: round(address.distance),
    };
  } else if (street) {
    result = {
      ...pointFields(...street.position),
      ...areas,
      street: street.item,
      addressLabel: street.item,
      layer: "street",
      confidence: "fallback",
      distance: round(street.distance),
    };
  } else {
    if (!areas.country) return [];
    const layer = areas.postalCode
      ? "postalCode"
      : areas.city
        ? "locality"
        : areas.county
          ? "county"
          : areas.state
            ? "state"
            : "country";
    // An area answer is located at the point asked about: the point is in that area.
    result = { ...pointFields(lng, lat), ...areas, layer, confidence: "fallback", distance: 0 };
  }
  const place = placeAt(lng, lat);
  if (place) result.placeLabel = place.name;
  return [answeredAddress(result)];
}
