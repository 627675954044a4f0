import { osmBuilder } from "./osm-builder";
import type { TestOsm } from "./osm-pbf";

/**
 * Geoland: a synthetic OSM extract for forward geocoding and autocomplete, at sea in the Gulf of
 * Guinea (no embedded region there, and away from Testland, so both can be imported at once).
 * 0.001° ≈ 111 m.
 *
 * - country "Geoland" (XG), state "Nordprovinz", county "Küstenkreis": the whole 0.1° square
 * - towns "Neustadt" (west half) and "Port Kings" (east half), as admin_level 8 boundaries
 * - "Hauptstraße" in both towns (a name in two towns is two streets): in Neustadt numbers 1, 3,
 *   5, 11 on one side and 2, 4 on the other, postcode 4711 (7 lies between 5 and 11); in Port
 *   Kings number 1, postcode 4712
 * - "Äulestraße 5" in Neustadt; "Rue de l'Église 12" and "Kings Avenue 10, 20" in Port Kings
 * - places: "Café Zentral" (Neustadt), "Kings Market" (Port Kings)
 * - postcodes on addresses only (no postal-code boundary)
 */

export const GEOLAND = {
  /** the middle of Neustadt's Hauptstraße */
  neustadt: { lng: 1.016, lat: 0.52 },
  portKings: { lng: 1.08, lat: 0.55 },
  /** where number 7 of Neustadt's Hauptstraße falls: a third of the way from 5 to 11 */
  hauptstrasse7: { lng: 1.017, lat: 0.5202 },
  hauptstrasse3: { lng: 1.013, lat: 0.5202 },
  portKingsHauptstrasse1: { lng: 1.071, lat: 0.5502 },
  aulestrasse5: { lng: 1.03, lat: 0.531 },
  eglise12: { lng: 1.082, lat: 0.561 },
  kingsAvenue10: { lng: 1.09, lat: 0.541 },
  cafe: { lng: 1.02, lat: 0.522 },
  market: { lng: 1.085, lat: 0.552 },
};

export function geoland(): TestOsm {
  const { osm, node, boundary, street, house: address } = osmBuilder();
  const house = (lng: number, lat: number, name: string, number: string, postcode: string) =>
    address({ lng, lat }, name, number, postcode);

  boundary(1.0, 0.5, 1.1, 0.6, { admin_level: "2", name: "Geoland", "ISO3166-1:alpha2": "XG" });
  boundary(1.0, 0.5, 1.1, 0.6, { admin_level: "4", name: "Nordprovinz", "ISO3166-2": "XG-NP" });
  boundary(1.0, 0.5, 1.1, 0.6, { admin_level: "6", name: "Küstenkreis" });
  boundary(1.0, 0.5, 1.05, 0.6, { admin_level: "8", name: "Neustadt" });
  boundary(1.05, 0.5, 1.1, 0.6, { admin_level: "8", name: "Port Kings" });

  // Neustadt
  street("Hauptstraße", [
    [1.01, 0.52],
    [1.02, 0.52],
    [1.025, 0.52],
  ]);
  for (const [number, lng] of [
    ["1", 1.011],
    ["3", 1.013],
    ["5", 1.015],
    ["11", 1.021],
  ] as const) {
    house(lng, 0.5202, "Hauptstraße", number, "4711");
  }
  house(1.012, 0.5198, "Hauptstraße", "2", "4711");
  house(1.014, 0.5198, "Hauptstraße", "4", "4711");
  street("Äulestraße", [
    [1.028, 0.531],
    [1.034, 0.531],
  ]);
  house(GEOLAND.aulestrasse5.lng, GEOLAND.aulestrasse5.lat, "Äulestraße", "5", "4711");
  node(GEOLAND.cafe.lng, GEOLAND.cafe.lat, { amenity: "cafe", name: "Café Zentral" });

  // Port Kings
  street("Hauptstraße", [
    [1.07, 0.55],
    [1.075, 0.55],
  ]);
  house(GEOLAND.portKingsHauptstrasse1.lng, GEOLAND.portKingsHauptstrasse1.lat, "Hauptstraße", "1", "4712");
  street("Rue de l'Église", [
    [1.08, 0.561],
    [1.084, 0.561],
  ]);
  house(GEOLAND.eglise12.lng, GEOLAND.eglise12.lat, "Rue de l'Église", "12", "4712");
  street("Kings Avenue", [
    [1.088, 0.541],
    [1.096, 0.541],
  ]);
  house(GEOLAND.kingsAvenue10.lng, GEOLAND.kingsAvenue10.lat, "Kings Avenue", "10", "4712");
  house(1.094, 0.541, "Kings Avenue", "20", "4712");
  node(GEOLAND.market.lng, GEOLAND.market.lat, { shop: "supermarket", name: "Kings Market" });
  return osm;
}
