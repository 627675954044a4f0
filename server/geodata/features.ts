import KDBush from "kdbush";
import { type Bundle, type BundleLayer, type BundleTables, type BundleWriter, blobOf } from "../bundles/file";
import type { BBox } from "../geo/distance";
import { floatsOf } from "../geo/rings";
import type { PostcodePoints } from "./postcode-vote";
import { RegionLookup, type StoredRegion } from "./region-lookup";

/**
 * The features layer of a bundle (docs/data.md): places, regions, addresses and streets, each
 * with an R*Tree over its bounding boxes. Written by the OSM and GeoJSON imports
 * (server/imports/), read by place search, reverse geocoding, regions and the dashboard map.
 */
export const FEATURES: BundleLayer = {
  name: "features",
  since: 1,
  schema: `
CREATE TABLE places (
  id INTEGER PRIMARY KEY, oid TEXT NOT NULL, name TEXT NOT NULL, categories TEXT NOT NULL,
  chainSlug TEXT, chainName TEXT, grp TEXT, lng REAL NOT NULL, lat REAL NOT NULL, shape BLOB
);
CREATE VIRTUAL TABLE places_index USING rtree(id, minLng, maxLng, minLat, maxLat);
-- "category:coffee-shop", "chain:starbucks", "group:airports": filtered place search reads the
-- places of one tag near a point from this index instead of every place there.
CREATE TABLE place_tags (tag TEXT NOT NULL, lng REAL NOT NULL, lat REAL NOT NULL, place INTEGER NOT NULL);
CREATE INDEX place_tags_tag_lng ON place_tags (tag, lng, lat);
CREATE TABLE regions (
  id INTEGER PRIMARY KEY, type TEXT NOT NULL, name TEXT NOT NULL, code TEXT, osm TEXT NOT NULL,
  area REAL NOT NULL, shape BLOB NOT NULL
);
CREATE VIRTUAL TABLE regions_index USING rtree(id, minLng, maxLng, minLat, maxLat);
CREATE TABLE addresses (
  id INTEGER PRIMARY KEY, number TEXT NOT NULL, street TEXT, unit TEXT, postcode TEXT, city TEXT,
  lng REAL NOT NULL, lat REAL NOT NULL
);
CREATE VIRTUAL TABLE addresses_index USING rtree(id, minLng, maxLng, minLat, maxLat);
CREATE TABLE streets (id INTEGER PRIMARY KEY, name TEXT NOT NULL, kind TEXT NOT NULL, shape BLOB NOT NULL);
CREATE VIRTUAL TABLE streets_index USING rtree(id, minLng, maxLng, minLat, maxLat);
`,
};

/** Addresses' own `addr:country` (format 7): evidence of their country where no boundary is imported. */
export const ADDRESS_COUNTRIES: BundleLayer = {
  name: "address countries",
  since: 7,
  schema: `CREATE TABLE address_countries (id INTEGER PRIMARY KEY, country TEXT NOT NULL);`,
};

export type { StoredRegion };

export interface StoredPlace {
  oid: string;
  name: string;
  categories: string[];
  chain?: { slug: string; name: string };
  group?: string;
  lng: number;
  lat: number;
  /** the outer ring of an area place, packed */
  ring?: Float64Array;
}

/** A place as the import writes it: the stored place and its bounding box. */
export interface PlaceRecord extends StoredPlace {
  bbox: BBox;
}

export interface RegionRecord {
  type: string;
  name: string;
  code?: string;
  osm: string;
  area: number;
  shape: Buffer;
  bbox: BBox;
}

export interface AddressRecord {
  number: string;
  street?: string;
  unit?: string;
  postcode?: string;
  city?: string;
  /** `addr:country` (ISO 3166-1 alpha-2): the address's own word on its country */
  country?: string;
  lng: number;
  lat: number;
}

export interface StreetRecord {
  name: string;
  kind: string;
  line: Float64Array;
  bbox: BBox;
}

export type StreetLine = Omit<StreetRecord, "bbox">;

const box = (b: BBox) => [b.minLng, b.maxLng, b.minLat, b.maxLat];

/** Writes the features of an import into its bundle, counting them. */
export class FeatureWriter {
  counts = { places: 0, regions: 0, addresses: 0, streets: 0 };

  constructor(private bundle: BundleWriter) {}

  private run(sql: string, ...params: unknown[]) {
    return this.bundle.statement(sql).run(...params).id;
  }

  place(r: PlaceRecord) {
    const id = this.run(
      `INSERT INTO places (oid, name, categories, chainSlug, chainName, grp, lng, lat, shape) VALUES (?,?,?,?,?,?,?,?,?)`,
      r.oid,
      r.name,
      `,${r.categories.join(",")},`,
      r.chain?.slug ?? null,
      r.chain?.name ?? null,
      r.group ?? null,
      r.lng,
      r.lat,
      r.ring ? blobOf(r.ring) : null,
    );
    this.run(`INSERT INTO places_index VALUES (?,?,?,?,?)`, id, ...box(r.bbox));
    const tags = [
      ...r.categories.map((c) => `category:${c}`),
      ...(r.chain ? [`chain:${r.chain.slug}`] : []),
      ...(r.group ? [`group:${r.group}`] : []),
    ];
    for (const tag of tags) this.run(`INSERT INTO place_tags VALUES (?,?,?,?)`, tag, r.lng, r.lat, id);
    this.counts.places++;
    this.bundle.step();
  }

  region(r: RegionRecord) {
    const id = this.run(
      `INSERT INTO regions (type, name, code, osm, area, shape) VALUES (?,?,?,?,?,?)`,
      r.type,
      r.name,
      r.code ?? null,
      r.osm,
      r.area,
      r.shape,
    );
    this.run(`INSERT INTO regions_index VALUES (?,?,?,?,?)`, id, ...box(r.bbox));
    this.counts.regions++;
    this.bundle.step();
  }

  address(r: AddressRecord) {
    const id = this.run(
      `INSERT INTO addresses (number, street, unit, postcode, city, lng, lat) VALUES (?,?,?,?,?,?,?)`,
      r.number,
      r.street ?? null,
      r.unit ?? null,
      r.postcode ?? null,
      r.city ?? null,
      r.lng,
      r.lat,
    );
    this.run(`INSERT INTO addresses_index VALUES (?,?,?,?,?)`, id, r.lng, r.lng, r.lat, r.lat);
    if (r.country) this.run(`INSERT INTO address_countries VALUES (?,?)`, id, r.country);
    this.counts.addresses++;
    this.bundle.step();
  }

  street(r: StreetRecord) {
    const id = this.run(
      `INSERT INTO streets (name, kind, shape) VALUES (?,?,?)`,
      r.name,
      r.kind,
      blobOf(r.line),
    );
    this.run(`INSERT INTO streets_index VALUES (?,?,?,?,?)`, id, ...box(r.bbox));
    this.counts.streets++;
    this.bundle.step();
  }
}

/** A row without its NULL columns (absent fields, not nulls). */
const withoutNulls = <T>(row: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(row).filter(([, v]) => v !== null)) as T;

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
