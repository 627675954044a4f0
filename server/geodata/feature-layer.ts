import { type BundleLayer, type BundleWriter, blobOf } from "../bundles/file";
import type { BBox } from "../geo/distance";
import type { PlaceRecord, RegionRecord, AddressRecord, StreetRecord } from "./feature-records";

/**
 * The features layer of a bundle (docs/data.md): places, regions, addresses and streets, each
 * with an R*Tree over its bounding boxes: its tables, and how the OSM and GeoJSON imports
 * (server/imports/) write them. Read by ./features.ts.
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

export const box = (b: BBox) => [b.minLng, b.maxLng, b.minLat, b.maxLat];

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
export const withoutNulls = <T>(row: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(row).filter(([, v]) => v !== null)) as T;
