import type { BundleWriter } from "../bundles/file";
import type { BBox } from "../geo/distance";

/**
 * Reads back the features an import wrote, for the layers built from them afterwards (the text
 * index: server/geocode/text-index-build.ts). Each reads in pages or in name order, so a
 * country's addresses never sit in memory at once.
 */

export interface AddressRow {
  id: number;
  number: string;
  street: string | null;
  unit: string | null;
  postcode: string | null;
  city: string | null;
  lng: number;
  lat: number;
}

export const addressRows = (w: BundleWriter) =>
  w.pages<AddressRow>(`SELECT id, number, street, unit, postcode, city, lng, lat FROM addresses`);

export const placeRows = (w: BundleWriter) =>
  w.pages<{ id: number; name: string; chainName: string | null; lng: number; lat: number }>(
    `SELECT id, name, chainName, lng, lat FROM places`,
  );

/** Regions with the centre of their bounding box. */
export const regionRows = (w: BundleWriter) =>
  w.pages<{ id: number; type: string; name: string; code: string | null; lng: number; lat: number }>(
    `SELECT r.id, r.type, r.name, r.code, (i.minLng + i.maxLng) / 2 AS lng,
      (i.minLat + i.maxLat) / 2 AS lat FROM regions r JOIN regions_index i ON i.id = r.id`,
    "r.id",
  );

/** A street of one name in one neighbourhood: its first row, centre and extent. */
export interface StreetCluster {
  id: number;
  name: string;
  lng: number;
  lat: number;
  bbox: BBox;
}

/** How near two ways (or addresses) of one name must come to be one street (degrees, ~300 m). */
const NEIGHBOURS = 0.003;

const meets = (a: BBox, b: BBox, margin: number) =>
  a.minLng <= b.maxLng + margin &&
  a.maxLng >= b.minLng - margin &&
  a.minLat <= b.maxLat + margin &&
  a.maxLat >= b.minLat - margin;

function grow(into: BBox, b: BBox) {
  into.minLng = Math.min(into.minLng, b.minLng);
  into.minLat = Math.min(into.minLat, b.minLat);
  into.maxLng = Math.max(into.maxLng, b.maxLng);
  into.maxLat = Math.max(into.maxLat, b.maxLat);
}

const centre = (b: BBox) => ({ lng: (b.minLng + b.maxLng) / 2, lat: (b.minLat + b.maxLat) / 2 });

/**
 * Rows sorted by name, cut into runs of one name, each run grouped into neighbourhoods: items
 * whose boxes come within NEIGHBOURS of a group's box join it (and grow it).
 */
function* neighbourhoods<T extends { name: string; bbox: BBox }>(
  sorted: T[],
  join: (group: T, item: T) => void = () => {},
  tick: () => void = () => {},
): Generator<T> {
  for (let start = 0; start < sorted.length;) {
    let end = start;
    while (end < sorted.length && sorted[end]!.name === sorted[start]!.name) end++;
    const groups: T[] = [];
    for (const item of sorted.slice(start, end)) {
      const near = groups.find((g) => meets(item.bbox, g.bbox, NEIGHBOURS));
      if (near) {
        grow(near.bbox, item.bbox);
        join(near, item);
      } else groups.push({ ...item, bbox: { ...item.bbox } });
      tick();
    }
    yield* groups;
    start = end;
  }
}

/** Streets grouped by name, then into neighbourhoods: ways whose boxes come within ~300 m. */
export function* streetClusters(w: BundleWriter, tick: () => void): Generator<StreetCluster> {
  const rows = w
    .statement(
      `SELECT s.id, s.name, i.minLng, i.minLat, i.maxLng, i.maxLat FROM streets s JOIN streets_index i ON i.id = s.id
       ORDER BY s.name`,
    )
    .all<{ id: number; name: string } & BBox>()
    .map(({ id, name, ...bbox }) => ({ id, name, bbox }));
  for (const c of neighbourhoods(rows, undefined, tick)) yield { ...c, ...centre(c.bbox) };
}

/** Addresses' street names, grouped into neighbourhoods as streetClusters groups ways. */
export function* addressStreets(w: BundleWriter): Generator<StreetCluster & { postcodes: string[] }> {
  const rows = w
    .statement(
      `SELECT id, street, postcode, lng, lat FROM addresses WHERE street IS NOT NULL ORDER BY street`,
    )
    .all<{ id: number; street: string; postcode: string | null; lng: number; lat: number }>()
    .map((a) => ({
      id: a.id,
      name: a.street,
      bbox: { minLng: a.lng, minLat: a.lat, maxLng: a.lng, maxLat: a.lat },
      postcodes: new Set(a.postcode ? [a.postcode] : []),
    }));
  const join = (group: (typeof rows)[number], a: (typeof rows)[number]) => {
    for (const p of a.postcodes) group.postcodes.add(p);
  };
  for (const c of neighbourhoods(rows, join)) {
    yield { id: c.id, name: c.name, bbox: c.bbox, ...centre(c.bbox), postcodes: [...c.postcodes] };
  }
}

/** The postcodes of the addresses of one street whose points lie in the box. */
export const streetPostcodesIn = (w: BundleWriter, b: BBox, street: string) =>
  w
    .statement(
      `SELECT DISTINCT a.postcode FROM addresses_index i CROSS JOIN addresses a ON a.id = i.id
       WHERE i.minLng <= ? AND i.maxLng >= ? AND i.minLat <= ? AND i.maxLat >= ? AND a.street = ?
         AND a.postcode IS NOT NULL`,
    )
    .column<string>(b.maxLng, b.minLng, b.maxLat, b.minLat, street);

/** The names of the ways whose boxes meet the box. */
export const wayNamesIn = (w: BundleWriter, b: BBox) =>
  w
    .statement(
      `SELECT s.name FROM streets_index i CROSS JOIN streets s ON s.id = i.id
       WHERE i.minLng <= ? AND i.maxLng >= ? AND i.minLat <= ? AND i.maxLat >= ?`,
    )
    .column<string>(b.maxLng, b.minLng, b.maxLat, b.minLat);
