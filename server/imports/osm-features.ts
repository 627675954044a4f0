import type { AddressRecord } from "../geodata/feature-records";
import { type BBox } from "../geo/distance";
import { packedBBox } from "../geo/rings";
import { type Tags } from "../geodata/taxonomy";

/** What OSM tags make: place ids, streets, administrative regions, areas and addresses. */

/** Stable 24-hex place ids: the OSM type (1 node, 2 way, 3 relation) and id. */
export function placeId(type: "node" | "way" | "relation", id: number): string {
  const t = type === "node" ? "1" : type === "way" ? "2" : "3";
  return t + id.toString(16).padStart(23, "0");
}

export const STREET_KINDS = new Set([
  "motorway",
  "trunk",
  "primary",
  "secondary",
  "tertiary",
  "unclassified",
  "residential",
  "living_street",
  "pedestrian",
  "service",
  "road",
  "motorway_link",
  "trunk_link",
  "primary_link",
  "secondary_link",
  "tertiary_link",
]);

/** Admin levels kept as region types; other levels vary too much between countries. */
const ADMIN_TYPES: Record<string, string> = { "2": "country", "4": "state", "6": "county", "8": "city" };

/** The region a boundary's tags describe, or null. */
export function regionOf(tags: Tags): { type: string; name: string; code?: string } | null {
  if (tags.boundary === "postal_code") {
    const code = tags.postal_code ?? tags["addr:postcode"] ?? tags.ref;
    return code ? { type: "postalCode", name: code, code } : null;
  }
  if (tags.boundary !== "administrative") return null;
  const type = ADMIN_TYPES[tags.admin_level ?? ""];
  const name = (type === "country" ? tags["name:en"] : undefined) ?? tags.name;
  if (!type || !name) return null;
  let code: string | undefined;
  if (type === "country")
    code = tags["ISO3166-1:alpha2"] ?? tags["ISO3166-1"] ?? tags.country_code?.toUpperCase();
  else if (type === "state") code = tags["ISO3166-2"]?.split("-")[1] ?? tags.ref;
  return { type, name, ...(code && { code }) };
}

export const isArea = (line: Float64Array) =>
  line.length >= 8 && line[0] === line[line.length - 2] && line[1] === line[line.length - 1];

/** The middle vertex of an open line. */
export function midpoint(line: Float64Array): [number, number] {
  const i = 2 * Math.floor(line.length / 4);
  return [line[i]!, line[i + 1]!];
}

export function lineBBox(c: Float64Array): BBox {
  return packedBBox([[c]]);
}

export function addressOf(tags: Tags, lng: number, lat: number): AddressRecord | null {
  const number = tags["addr:housenumber"];
  if (!number) return null;
  const street = tags["addr:street"] ?? tags["addr:place"];
  return {
    number,
    ...(street && { street }),
    ...(tags["addr:unit"] && { unit: tags["addr:unit"] }),
    ...(tags["addr:postcode"] && { postcode: tags["addr:postcode"] }),
    ...(tags["addr:city"] && { city: tags["addr:city"] }),
    ...(/^[A-Za-z]{2}$/.test(tags["addr:country"] ?? "") && { country: tags["addr:country"]!.toUpperCase() }),
    lng,
    lat,
  };
}
