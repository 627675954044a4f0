import KDBush from "kdbush";
import { type Bundle, type BundleTables } from "../bundles/file";
import type { BBox } from "../geo/distance";
import { floatsOf } from "../geo/rings";
import type { PostcodePoints } from "./postcode-vote";
import { RegionLookup, type StoredRegion } from "./region-lookup";
import { ADDRESS_COUNTRIES, withoutNulls } from "./feature-layer";
import type { StoredPlace, AddressRecord, StreetLine } from "./feature-records";

/**
 * Reading the features layer of a bundle (./feature-layer.ts): places, regions, addresses and
 * streets by box, read by place search, reverse geocoding, regions and the dashboard map.
 */

export type { StoredRegion };

interface PlaceRow {
  oid: string;
  name: string;
  categories: string;
  chainSlug: string | null;
  chainName: string | null;
  grp: string | null;
  lng: number;
  lat: number;
  shape: Buffer | null;
}

function placeFromRow(r: PlaceRow): StoredPlace {
  return {
    oid: r.oid,
    name: r.name,
    categories: r.categories.split(",").filter(Boolean),
    ...(r.chainSlug && { chain: { slug: r.chainSlug, name: r.chainName ?? r.chainSlug } }),
    ...(r.grp && { group: r.grp }),
    lng: r.lng,
    lat: r.lat,
    ...(r.shape && { ring: floatsOf(r.shape) }),
  };
}

/**
 * The addresses of a bundle that carry a postcode, as a KD-tree over their points, with the
 * import's extent (Features.postcodePoints; the text index's build). Null when none has.
 */
export function postcodePointsOf(tables: BundleTables): PostcodePoints | null {
  const rows = tables
    .statement(`SELECT lng, lat, postcode FROM addresses WHERE postcode IS NOT NULL`)
    .all<{ lng: number; lat: number; postcode: string }>();
  if (rows.length === 0) return null;
  const index = new KDBush(rows.length, 64, Float32Array);
  const codes: string[] = [];
  const ids = new Map<string, number>();
  const codeOf = new Uint32Array(rows.length);
  const lngs = new Float32Array(rows.length);
  const lats = new Float32Array(rows.length);
  const towns = new RegionLookup(tables);
  const townOf = rows.map((r) => townAt(towns, r.lng, r.lat));
  const extent = { minLng: Infinity, minLat: Infinity, maxLng: -Infinity, maxLat: -Infinity };
  rows.forEach(({ lng, lat, postcode: code }, i) => {
    index.add(lng, lat);
    let id = ids.get(code);
    if (id === undefined) ids.set(code, (id = codes.push(code) - 1));
    codeOf[i] = id;
    lngs[i] = lng;
    lats[i] = lat;
    extent.minLng = Math.min(extent.minLng, lng);
    extent.minLat = Math.min(extent.minLat, lat);
    extent.maxLng = Math.max(extent.maxLng, lng);
    extent.maxLat = Math.max(extent.maxLat, lat);
  });
  index.finish();
  return { index, codes, codeOf, lngs, lats, townOf, extent };
}

/** The town a point lies in: the smallest imported city boundary around it, by name. */
export function townAt(lookup: RegionLookup, lng: number, lat: number): string | undefined {
  return lookup.at(lng, lat).find((r) => r.type === "city")?.name;
}

const PLACE_COLUMNS = `p.oid, p.name, p.categories, p.chainSlug, p.chainName, p.grp, p.lng, p.lat`;

/** An address row's columns, with its `addr:country` where the file has them (format 7). */
const addressColumns = (bundle: Bundle) =>
  `a.number, a.street, a.unit, a.postcode, a.city, a.lng, a.lat${bundle.has(ADDRESS_COUNTRIES) ? ", c.country" : ""}`;

const addressJoin = (bundle: Bundle) =>
  bundle.has(ADDRESS_COUNTRIES) ? "LEFT JOIN address_countries c ON c.id = a.id" : "";

/** The features of one opened bundle. */
export class Features {
  private regions: RegionLookup;

  constructor(private bundle: Bundle) {
    this.regions = new RegionLookup(bundle);
  }

  private query(sql: string) {
    return this.bundle.statement(sql);
  }

  /** Regions whose shape contains the point, smallest first. */
  regionsAt(lng: number, lat: number): StoredRegion[] {
    return this.regions.at(lng, lat);
  }

  /** Places whose bounding box meets the box. */
  placesIn(b: BBox, limit = -1): StoredPlace[] {
    return this.query(
      `SELECT ${PLACE_COLUMNS}, p.shape FROM places_index i CROSS JOIN places p ON p.id = i.id
       WHERE i.minLng <= ? AND i.maxLng >= ? AND i.minLat <= ? AND i.maxLat >= ? LIMIT ?`,
    )
      .all<PlaceRow>(b.maxLng, b.minLng, b.maxLat, b.minLat, limit)
      .map(placeFromRow);
  }

  /**
   * Places with one of `tags` whose location lies in the box, without outlines (search):
   * through the tag index, so a rare category near a busy city reads only its own places.
   */
  placesTaggedIn(b: BBox, tags: string[]): StoredPlace[] {
    return this.query(
      `SELECT DISTINCT ${PLACE_COLUMNS}, NULL AS shape FROM place_tags t CROSS JOIN places p ON p.id = t.place
       WHERE t.tag IN (SELECT value FROM json_each(?)) AND t.lng BETWEEN ? AND ? AND t.lat BETWEEN ? AND ?`,
    )
      .all<PlaceRow>(JSON.stringify(tags), b.minLng, b.maxLng, b.minLat, b.maxLat)
      .map(placeFromRow);
  }

  /** Places whose location lies in the box, without outlines (search). */
  placePointsIn(b: BBox): StoredPlace[] {
    return this.query(
      `SELECT ${PLACE_COLUMNS}, NULL AS shape FROM places_index i CROSS JOIN places p ON p.id = i.id
       WHERE i.minLng <= ? AND i.maxLng >= ? AND i.minLat <= ? AND i.maxLat >= ?
         AND p.lng BETWEEN ? AND ? AND p.lat BETWEEN ? AND ?`,
    )
      .all<PlaceRow>(b.maxLng, b.minLng, b.maxLat, b.minLat, b.minLng, b.maxLng, b.minLat, b.maxLat)
      .map(placeFromRow);
  }

  placeById(oid: string): StoredPlace | undefined {
    const row = this.query(`SELECT ${PLACE_COLUMNS}, p.shape FROM places p WHERE p.oid = ?`).get<PlaceRow>(
      oid,
    );
    return row && placeFromRow(row);
  }

  /** Addresses whose point lies in the box. */
  addressesIn(b: BBox): AddressRecord[] {
    return this.query(
      `SELECT ${addressColumns(this.bundle)}
       FROM addresses_index i CROSS JOIN addresses a ON a.id = i.id ${addressJoin(this.bundle)}
       WHERE i.minLng <= ? AND i.maxLng >= ? AND i.minLat <= ? AND i.maxLat >= ?`,
    )
      .all(b.maxLng, b.minLng, b.maxLat, b.minLat)
      .map((r) => withoutNulls<AddressRecord>(r));
  }

  /** Every address that names its street, in import order (evaluation and benchmarks). */
  streetAddresses(): (AddressRecord & { street: string })[] {
    return this.query(
      `SELECT ${addressColumns(this.bundle)} FROM addresses a ${addressJoin(this.bundle)}
       WHERE a.street IS NOT NULL ORDER BY a.id`,
    )
      .all()
      .map((r) => withoutNulls<AddressRecord & { street: string }>(r));
  }

  /** An address by its row (a text document's ref). */
  addressById(id: number): AddressRecord | undefined {
    const row = this.query(
      `SELECT ${addressColumns(this.bundle)} FROM addresses a ${addressJoin(this.bundle)} WHERE a.id = ?`,
    ).get(id);
    return row && withoutNulls<AddressRecord>(row);
  }

  /**
   * The addresses that carry a postcode, as a KD-tree over their points (built on first use,
   * once per file: about a millisecond per thousand addresses; 28 bytes each), with the import's
   * extent. Null when no address has a postcode.
   */
  postcodePoints(): PostcodePoints | null {
    return this.bundle.once("postcodePoints", () => postcodePointsOf(this.bundle));
  }

  /**
   * The countries whose boundary the import holds (exact inside the extract, where it was cut),
   * and the extract's box: a point in the box but outside such a country is not in it.
   */
  importedCountries(): { codes: Set<string>; extent: BBox | undefined } {
    return this.bundle.once("importedCountries", () => {
      const codes = this.bundle
        .statement(`SELECT code FROM regions WHERE type = 'country' AND code IS NOT NULL`)
        .column<string>();
      const box = this.bundle.meta().bbox;
      const [minLng, minLat, maxLng, maxLat] = box ? (JSON.parse(box) as number[]) : [];
      return {
        codes: new Set(codes),
        extent: box ? { minLng: minLng!, minLat: minLat!, maxLng: maxLng!, maxLat: maxLat! } : undefined,
      };
    });
  }

  /** A region by its row: its type, name and code. */
  regionById(id: number): StoredRegion | undefined {
    return this.regions.shape(id).region;
  }

  /**
   * Streets whose bounding box meets the box, with their lines (at most `limit`; -1: all), of the
   * given kinds (OSM highway values) only when `kinds` is given.
   */
  streetsIn(b: BBox, limit = -1, kinds?: readonly string[]): StreetLine[] {
    const only = kinds ? ` AND s.kind IN (${kinds.map(() => "?").join(",")})` : "";
    return this.query(
      `SELECT s.name, s.kind, s.shape FROM streets_index i CROSS JOIN streets s ON s.id = i.id
       WHERE i.minLng <= ? AND i.maxLng >= ? AND i.minLat <= ? AND i.maxLat >= ?${only} LIMIT ?`,
    )
      .all<{ name: string; kind: string; shape: Buffer }>(
        b.maxLng,
        b.minLng,
        b.maxLat,
        b.minLat,
        ...(kinds ?? []),
        limit,
      )
      .map((r) => ({ name: r.name, kind: r.kind, line: floatsOf(r.shape) }));
  }

  /** Streets of one name whose bounding box meets the box, with their lines. */
  streetsNamedIn(b: BBox, name: string): StreetLine[] {
    return this.query(
      `SELECT s.name, s.kind, s.shape FROM streets_index i CROSS JOIN streets s ON s.id = i.id
       WHERE i.minLng <= ? AND i.maxLng >= ? AND i.minLat <= ? AND i.maxLat >= ? AND s.name = ?`,
    )
      .all<{ name: string; kind: string; shape: Buffer }>(b.maxLng, b.minLng, b.maxLat, b.minLat, name)
      .map((r) => ({ name: r.name, kind: r.kind, line: floatsOf(r.shape) }));
  }

  /** The imported regions meeting a box, as GeoJSON-ready polygons (for the dashboard map). */
  regionsIn(b: BBox, limit: number) {
    const ids = this.query(
      `SELECT r.id FROM regions_index i CROSS JOIN regions r ON r.id = i.id
       WHERE i.minLng <= ? AND i.maxLng >= ? AND i.minLat <= ? AND i.maxLat >= ? ORDER BY r.area DESC LIMIT ?`,
    ).column<number>(b.maxLng, b.minLng, b.maxLat, b.minLat, limit);
    return ids.map((id) => {
      const s = this.regions.shape(id);
      return { region: s.region, polygons: s.polygons.map((p) => p.map((r) => r.coords)) };
    });
  }
}

/** The features of a bundle (made once per opened file). */
export const features = (bundle: Bundle): Features => bundle.once("features", () => new Features(bundle));
