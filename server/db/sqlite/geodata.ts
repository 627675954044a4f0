import Database from "better-sqlite3";
import KDBush from "kdbush";
import { type BBox, type Position } from "../../geo/distance";
import { type BandedRing, bandRing, pointInBandedRing, ringAreaAndCentroid } from "../../geo/polygon";
import { decodePolygons, floatsOf, positionsOf } from "../../geo/rings";
import { indexTokens, nameKey } from "../../text/normalize";
import { type PostcodePoints, votePostcode } from "../../geodata/postcode-vote";

export type { PostcodePoints };
import { type RoadGraph, graphFromParts, graphParts } from "../../routing/graph";
import { type Timetable, timetableFromParts, timetableParts } from "../../transit/timetable";

/**
 * Imported geodata (docs/data.md): one SQLite file per imported region, apart from the main
 * database. An import writes a new file and renames it over the old one, so a reader sees either
 * the previous import or the new one, never a half-written one, and the tracking database never
 * waits on an import. Each table has an R*Tree over its bounding boxes.
 *
 * The PostgreSQL build keeps the same tables in a schema per import and swaps schemas in one
 * transaction (GiST indexes instead of R*Trees).
 */

export const GEODATA_SCHEMA = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
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
-- The text index (forward geocoding, autocomplete): one document per address, street (its ways
-- of one name near each other), place and region, with the row it stands for ("ref" in the
-- layer's table) and a point. Its text is indexed in normalized tokens (server/geocode/normalize.ts):
-- name (street, place or region name), number (house number), area (postcode, city). The same
-- three texts as written are kept in "search" (ranking compares them with what was typed), and
-- "kind" says a region's type.
CREATE TABLE search (
  id INTEGER PRIMARY KEY, layer TEXT NOT NULL, ref INTEGER NOT NULL, lng REAL NOT NULL, lat REAL NOT NULL,
  kind TEXT, name TEXT NOT NULL, number TEXT NOT NULL, area TEXT NOT NULL
);
-- The road graph (server/routing/graph.ts): each typed array of it as one blob, by name.
CREATE TABLE road_graph (part TEXT PRIMARY KEY, data BLOB NOT NULL);
-- A GTFS feed's timetable (server/transit/timetable.ts), the same way.
CREATE TABLE transit (part TEXT PRIMARY KEY, data BLOB NOT NULL);
CREATE VIRTUAL TABLE search_text USING fts5(
  name, number, area, content='', columnsize=0, tokenize='unicode61 remove_diacritics 2', prefix='1 2 3'
);
`;

/**
 * The version of the bundle's layout: 3 has the text index as it is now, 4 the road graph too,
 * 5 its contraction hierarchies (format 4 still routes, by the slower A*), 6 the transit table
 * (GTFS imports). A reader uses the parts a file's version has.
 */
export const BUNDLE_FORMAT = 6;
const TRANSIT_FORMAT = 6;
const TEXT_INDEX_FORMAT = 3;
const ROAD_GRAPH_FORMAT = 4;

/**
 * A document of the text index: what it stands for (the row `ref` of its layer's table), where,
 * and its text as written (name, number, area); `kind` is a region's type.
 */
export interface TextDocument {
  id: number;
  layer: "address" | "street" | "place" | "region";
  ref: number;
  lng: number;
  lat: number;
  kind: string | null;
  name: string;
  number: string;
  area: string;
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
  lng: number;
  lat: number;
}

export interface StreetRecord {
  name: string;
  kind: string;
  line: Float64Array;
  bbox: BBox;
}

/** A row without its NULL columns (absent fields, not nulls). */
const withoutNulls = <T>(row: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(row).filter(([, v]) => v !== null)) as T;

/**
 * The addresses of an import file that carry a postcode, as a KD-tree over their points, with
 * the import's extent (GeodataFile.postcodePoints; the writer's text index). Null when none has.
 */
function postcodePointsOf(db: Database.Database): PostcodePoints | null {
  const rows = db
    .prepare(`SELECT lng, lat, postcode FROM addresses WHERE postcode IS NOT NULL`)
    .raw()
    .all() as [number, number, string][];
  if (rows.length === 0) return null;
  const index = new KDBush(rows.length, 64, Float32Array);
  const codes: string[] = [];
  const ids = new Map<string, number>();
  const codeOf = new Uint32Array(rows.length);
  const lngs = new Float32Array(rows.length);
  const lats = new Float32Array(rows.length);
  let minLng = Infinity;
  let minLat = Infinity;
  let maxLng = -Infinity;
  let maxLat = -Infinity;
  rows.forEach(([lng, lat, code], i) => {
    index.add(lng, lat);
    let id = ids.get(code);
    if (id === undefined) ids.set(code, (id = codes.push(code) - 1));
    codeOf[i] = id;
    lngs[i] = lng;
    lats[i] = lat;
    minLng = Math.min(minLng, lng);
    minLat = Math.min(minLat, lat);
    maxLng = Math.max(maxLng, lng);
    maxLat = Math.max(maxLat, lat);
  });
  index.finish();
  return { index, codes, codeOf, lngs, lats, extent: { minLng, minLat, maxLng, maxLat } };
}

const box = (b: BBox) => [b.minLng, b.maxLng, b.minLat, b.maxLat];

/** Writes one import file; rows go in large transactions, the file is unusable until finish(). */
export class GeodataWriter {
  private db: Database.Database;
  private pending = 0;
  private insert: Record<string, Database.Statement>;
  counts = { places: 0, regions: 0, addresses: 0, streets: 0 };

  constructor(file: string) {
    this.db = new Database(file);
    // A crash leaves a partial file that is never served, so no journal is needed.
    this.db.pragma("journal_mode = OFF");
    this.db.pragma("synchronous = OFF");
    this.db.exec(GEODATA_SCHEMA);
    const p = (sql: string) => this.db.prepare(sql);
    this.insert = {
      place: p(
        `INSERT INTO places (oid, name, categories, chainSlug, chainName, grp, lng, lat, shape) VALUES (?,?,?,?,?,?,?,?,?)`,
      ),
      placeIndex: p(`INSERT INTO places_index VALUES (?,?,?,?,?)`),
      placeTag: p(`INSERT INTO place_tags VALUES (?,?,?,?)`),
      region: p(`INSERT INTO regions (type, name, code, osm, area, shape) VALUES (?,?,?,?,?,?)`),
      regionIndex: p(`INSERT INTO regions_index VALUES (?,?,?,?,?)`),
      address: p(
        `INSERT INTO addresses (number, street, unit, postcode, city, lng, lat) VALUES (?,?,?,?,?,?,?)`,
      ),
      addressIndex: p(`INSERT INTO addresses_index VALUES (?,?,?,?,?)`),
      street: p(`INSERT INTO streets (name, kind, shape) VALUES (?,?,?)`),
      streetIndex: p(`INSERT INTO streets_index VALUES (?,?,?,?,?)`),
      meta: p(`INSERT OR REPLACE INTO meta VALUES (?,?)`),
    };
    this.db.exec("BEGIN");
  }

  private step() {
    if (++this.pending >= 20_000) {
      this.db.exec("COMMIT; BEGIN");
      this.pending = 0;
    }
  }

  place(r: PlaceRecord) {
    const ring = r.ring ? Buffer.from(r.ring.buffer, r.ring.byteOffset, r.ring.byteLength) : null;
    const { lastInsertRowid: id } = this.insert.place!.run(
      r.oid,
      r.name,
      `,${r.categories.join(",")},`,
      r.chain?.slug ?? null,
      r.chain?.name ?? null,
      r.group ?? null,
      r.lng,
      r.lat,
      ring,
    );
    this.insert.placeIndex!.run(id, ...box(r.bbox));
    const tags = [
      ...r.categories.map((c) => `category:${c}`),
      ...(r.chain ? [`chain:${r.chain.slug}`] : []),
      ...(r.group ? [`group:${r.group}`] : []),
    ];
    for (const tag of tags) this.insert.placeTag!.run(tag, r.lng, r.lat, id);
    this.counts.places++;
    this.step();
  }

  region(r: RegionRecord) {
    const { lastInsertRowid: id } = this.insert.region!.run(
      r.type,
      r.name,
      r.code ?? null,
      r.osm,
      r.area,
      r.shape,
    );
    this.insert.regionIndex!.run(id, ...box(r.bbox));
    this.counts.regions++;
    this.step();
  }

  address(r: AddressRecord) {
    const { lastInsertRowid: id } = this.insert.address!.run(
      r.number,
      r.street ?? null,
      r.unit ?? null,
      r.postcode ?? null,
      r.city ?? null,
      r.lng,
      r.lat,
    );
    this.insert.addressIndex!.run(id, r.lng, r.lng, r.lat, r.lat);
    this.counts.addresses++;
    this.step();
  }

  street(r: StreetRecord) {
    const shape = Buffer.from(r.line.buffer, r.line.byteOffset, r.line.byteLength);
    const { lastInsertRowid: id } = this.insert.street!.run(r.name, r.kind, shape);
    this.insert.streetIndex!.run(id, ...box(r.bbox));
    this.counts.streets++;
    this.step();
  }

  meta(key: string, value: string) {
    this.insert.meta!.run(key, value);
  }

  /**
   * Builds the text index from the rows written (every kind of import gets one), reporting the
   * share done. Streets are indexed once per name and neighbourhood: OSM splits a street into
   * many ways, and a name used in two villages is two streets.
   */
  buildTextIndex(onProgress: (fraction: number) => void = () => {}) {
    this.db.exec("COMMIT; BEGIN");
    const total = this.counts.addresses + this.counts.streets + this.counts.places + this.counts.regions || 1;
    let done = 0;
    let lastReport = 0;
    const tick = () => {
      done++;
      const now = performance.now();
      if (now - lastReport > 100) {
        lastReport = now;
        onProgress(done / total);
      }
      this.step();
    };
    const doc = this.db.prepare(
      `INSERT INTO search (layer, ref, lng, lat, kind, name, number, area) VALUES (?,?,?,?,?,?,?,?)`,
    );
    const text = this.db.prepare(`INSERT INTO search_text (rowid, name, number, area) VALUES (?,?,?,?)`);
    const add = (
      layer: string,
      ref: number | bigint,
      lng: number,
      lat: number,
      name: string,
      number = "",
      area = "",
      kind: string | null = null,
    ) => {
      const clean = (text: string) => text.replace(/\s+/g, " ").trim();
      [name, number, area] = [clean(name), clean(number), clean(area)];
      const { lastInsertRowid: id } = doc.run(layer, ref, lng, lat, kind, name, number, area);
      text.run(id, indexTokens(name).join(" "), indexTokens(number).join(" "), indexTokens(area).join(" "));
    };
    type Row = Record<string, string | number | null> & { id: number };
    // What an address, street or place lies in, by name ("Landstrasse 12, Vaduz" where the
    // address itself has no addr:city): the import's own city, county, state and country.
    const within = new RegionLookup(this.db);
    const areas = (lng: number, lat: number) =>
      within
        .at(lng, lat)
        .filter((r) => r.type !== "dma")
        .map((r) => (r.type === "postalCode" ? (r.code ?? r.name) : r.name))
        .join(" ");
    // A street's postcodes are those of its addresses (many postcodes are mapped on addresses only).
    const streetPostcodes = this.db
      .prepare(
        `SELECT DISTINCT a.postcode FROM addresses_index i CROSS JOIN addresses a ON a.id = i.id
         WHERE i.minLng <= ? AND i.maxLng >= ? AND i.minLat <= ? AND i.maxLat >= ? AND a.street = ?
           AND a.postcode IS NOT NULL`,
      )
      .pluck();
    // An address without a postcode is found by its neighbours' (as the server answers it).
    const postcodes = postcodePointsOf(this.db);
    for (const a of this.rows<Row>(
      `SELECT id, number, street, unit, postcode, city, lng, lat FROM addresses`,
    )) {
      const [lng, lat] = [a.lng as number, a.lat as number];
      const postcode = a.postcode ?? (postcodes ? votePostcode([postcodes], lng, lat) : undefined);
      const area = `${postcode ?? ""} ${a.city ?? ""} ${areas(lng, lat)}`;
      add(
        "address",
        a.id,
        a.lng as number,
        a.lat as number,
        String(a.street ?? ""),
        `${a.number} ${a.unit ?? ""}`,
        area,
      );
      tick();
    }
    const NEAR = 0.001;
    for (const street of this.streetClusters(tick)) {
      const b = street.bbox;
      const postcodes = streetPostcodes.all(
        b.maxLng + NEAR,
        b.minLng - NEAR,
        b.maxLat + NEAR,
        b.minLat - NEAR,
        street.name,
      ) as string[];
      const area = `${postcodes.join(" ")} ${areas(street.lng, street.lat)}`;
      add("street", street.id, street.lng, street.lat, street.name, "", area);
    }
    // Streets known only from addresses (their ways unnamed, mapped under another spelling, or
    // outside the extract): one document per name and neighbourhood of its addresses, kind
    // "addresses", ref the first address.
    const wayNamed = this.db
      .prepare(
        `SELECT s.name FROM streets_index i CROSS JOIN streets s ON s.id = i.id
         WHERE i.minLng <= ? AND i.maxLng >= ? AND i.minLat <= ? AND i.maxLat >= ?`,
      )
      .pluck();
    for (const street of this.addressStreets()) {
      const b = street.bbox;
      const key = nameKey(street.name);
      const ways = wayNamed.all(
        b.maxLng + NEAR,
        b.minLng - NEAR,
        b.maxLat + NEAR,
        b.minLat - NEAR,
      ) as string[];
      if (ways.some((name) => nameKey(name) === key)) continue;
      const area = `${street.postcodes.join(" ")} ${areas(street.lng, street.lat)}`;
      add("street", street.id, street.lng, street.lat, street.name, "", area, "addresses");
    }
    for (const p of this.rows<Row>(`SELECT id, name, chainName, lng, lat FROM places`)) {
      const name = p.chainName && p.chainName !== p.name ? `${p.name} ${p.chainName}` : String(p.name);
      add("place", p.id, p.lng as number, p.lat as number, name, "", areas(p.lng as number, p.lat as number));
      tick();
    }
    const regions = `SELECT r.id, r.type, r.name, r.code, (i.minLng + i.maxLng) / 2 AS lng,
      (i.minLat + i.maxLat) / 2 AS lat FROM regions r JOIN regions_index i ON i.id = r.id`;
    for (const r of this.rows<Row>(regions, "r.id")) {
      // A postal code is found by its code; the others by name (and code: "LI", "NY").
      const postal = r.type === "postalCode";
      const [lng, lat] = within.pointIn(r.id) ?? [r.lng as number, r.lat as number];
      add(
        "region",
        r.id,
        lng,
        lat,
        postal ? "" : String(r.name),
        "",
        String(r.code ?? (postal ? r.name : "")),
        String(r.type),
      );
      tick();
    }
    this.meta("format", String(BUNDLE_FORMAT));
    onProgress(1);
  }

  /**
   * The rows of a query over a table with an integer id, read 10,000 at a time: the index is
   * written while they are read, and a large import's rows do not fit in memory at once.
   */
  private *rows<T extends { id: number }>(sql: string, id = "id"): Generator<T> {
    const page = this.db.prepare(`${sql} WHERE ${id} > ? ORDER BY ${id} LIMIT 10000`);
    for (let after = 0; ;) {
      const batch = page.all(after) as T[];
      if (!batch.length) return;
      yield* batch;
      after = batch[batch.length - 1]!.id;
    }
  }

  /** Streets grouped by name, then into neighbourhoods: ways whose boxes come within ~300 m. */
  private *streetClusters(tick: () => void) {
    const rows = this.db
      .prepare(
        `SELECT s.id, s.name, i.minLng, i.minLat, i.maxLng, i.maxLat FROM streets s JOIN streets_index i ON i.id = s.id
         ORDER BY s.name`,
      )
      .all() as ({ id: number; name: string } & BBox)[];
    const NEAR = 0.003;
    for (let start = 0; start < rows.length;) {
      let end = start;
      while (end < rows.length && rows[end]!.name === rows[start]!.name) end++;
      const group = rows.slice(start, end);
      const clusters: ({ id: number; name: string } & BBox)[] = [];
      for (const way of group) {
        const near = clusters.find(
          (c) =>
            way.minLng <= c.maxLng + NEAR &&
            way.maxLng >= c.minLng - NEAR &&
            way.minLat <= c.maxLat + NEAR &&
            way.maxLat >= c.minLat - NEAR,
        );
        if (near) {
          near.minLng = Math.min(near.minLng, way.minLng);
          near.minLat = Math.min(near.minLat, way.minLat);
          near.maxLng = Math.max(near.maxLng, way.maxLng);
          near.maxLat = Math.max(near.maxLat, way.maxLat);
        } else clusters.push({ ...way });
        tick();
      }
      for (const c of clusters) {
        const { minLng, minLat, maxLng, maxLat } = c;
        yield {
          id: c.id,
          name: c.name,
          lng: (minLng + maxLng) / 2,
          lat: (minLat + maxLat) / 2,
          bbox: { minLng, minLat, maxLng, maxLat },
        };
      }
      start = end;
    }
  }

  /** Addresses' street names, grouped into neighbourhoods as streetClusters groups ways. */
  private *addressStreets() {
    const rows = this.db
      .prepare(
        `SELECT id, street, postcode, lng, lat FROM addresses WHERE street IS NOT NULL ORDER BY street`,
      )
      .all() as { id: number; street: string; postcode: string | null; lng: number; lat: number }[];
    const NEAR = 0.003;
    for (let start = 0; start < rows.length;) {
      let end = start;
      while (end < rows.length && rows[end]!.street === rows[start]!.street) end++;
      const clusters: { id: number; name: string; bbox: BBox; postcodes: Set<string> }[] = [];
      for (const a of rows.slice(start, end)) {
        const near = clusters.find(
          ({ bbox: b }) =>
            a.lng <= b.maxLng + NEAR &&
            a.lng >= b.minLng - NEAR &&
            a.lat <= b.maxLat + NEAR &&
            a.lat >= b.minLat - NEAR,
        );
        if (near) {
          near.bbox.minLng = Math.min(near.bbox.minLng, a.lng);
          near.bbox.minLat = Math.min(near.bbox.minLat, a.lat);
          near.bbox.maxLng = Math.max(near.bbox.maxLng, a.lng);
          near.bbox.maxLat = Math.max(near.bbox.maxLat, a.lat);
          if (a.postcode) near.postcodes.add(a.postcode);
        } else {
          clusters.push({
            id: a.id,
            name: a.street,
            bbox: { minLng: a.lng, minLat: a.lat, maxLng: a.lng, maxLat: a.lat },
            postcodes: new Set(a.postcode ? [a.postcode] : []),
          });
        }
      }
      for (const c of clusters) {
        yield {
          id: c.id,
          name: c.name,
          lng: (c.bbox.minLng + c.bbox.maxLng) / 2,
          lat: (c.bbox.minLat + c.bbox.maxLat) / 2,
          bbox: c.bbox,
          postcodes: [...c.postcodes],
        };
      }
      start = end;
    }
  }

  /** Stores the road graph: each of its arrays as a blob. */
  roadGraph(graph: RoadGraph) {
    const insert = this.db.prepare(`INSERT OR REPLACE INTO road_graph (part, data) VALUES (?, ?)`);
    for (const [part, array] of graphParts(graph)) {
      insert.run(part, Buffer.from(array.buffer, array.byteOffset, array.byteLength));
    }
    this.meta("roadGraph", JSON.stringify({ vertices: graph.lng.length, edges: graph.edgeLength.length }));
  }

  /** Stores a GTFS feed's timetable: each of its parts as a blob. */
  transit(timetable: Timetable) {
    const insert = this.db.prepare(`INSERT OR REPLACE INTO transit (part, data) VALUES (?, ?)`);
    for (const [part, bytes] of timetableParts(timetable))
      insert.run(part, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  }

  /** Commits, gathers planner statistics and closes the file. */
  finish() {
    this.db.exec("COMMIT");
    this.db.exec("ANALYZE");
    this.db.close();
  }

  /** Closes without finishing (the caller deletes the file). */
  abandon() {
    if (this.db.open) this.db.close();
  }
}

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

export interface StoredRegion {
  type: string;
  name: string;
  code?: string;
  area: number;
}

interface RegionShape {
  region: StoredRegion;
  polygons: BandedRing[][];
}

/**
 * The regions of an import file that contain a point, with their shapes decoded and banded once
 * (server/geo/polygon.ts): used by the server's reads and by the import's text index alike.
 */
class RegionLookup {
  private shapes = new Map<number, RegionShape>();
  private candidates: Database.Statement;
  private row: Database.Statement;

  constructor(db: Database.Database) {
    this.candidates = db
      .prepare(
        `SELECT id FROM regions_index WHERE minLng <= @lng AND maxLng >= @lng AND minLat <= @lat AND maxLat >= @lat`,
      )
      .pluck();
    this.row = db.prepare(`SELECT type, name, code, area, shape FROM regions WHERE id = ?`);
  }

  /** Regions whose shape contains the point, smallest first. */
  at(lng: number, lat: number): StoredRegion[] {
    const hits: StoredRegion[] = [];
    for (const id of this.candidates.all({ lng, lat }) as number[]) {
      const shape = this.shape(id);
      const inside = shape.polygons.some(
        ([outer, ...holes]) =>
          pointInBandedRing(lng, lat, outer!) && !holes.some((h) => pointInBandedRing(lng, lat, h)),
      );
      if (inside) hits.push(shape.region);
    }
    return hits.sort((a, b) => a.area - b.area);
  }

  /**
   * A point that stands for a region: the centroid of its largest part when that lies inside it
   * (a municipality's exclaves in the mountains do not pull it away from the town), else none.
   */
  pointIn(id: number): Position | undefined {
    let best: { area: number; centroid: Position } | undefined;
    for (const [outer] of this.shape(id).polygons) {
      const ac = ringAreaAndCentroid(positionsOf(outer!.coords));
      if (!best || ac.area > best.area) best = ac;
    }
    if (!best) return undefined;
    const [lng, lat] = best.centroid;
    return this.at(lng, lat).some((r) => r === this.shape(id).region) ? best.centroid : undefined;
  }

  shape(id: number): RegionShape {
    let shape = this.shapes.get(id);
    if (!shape) {
      const row = this.row.get(id) as {
        type: string;
        name: string;
        code: string | null;
        area: number;
        shape: Buffer;
      };
      shape = {
        region: { type: row.type, name: row.name, ...(row.code && { code: row.code }), area: row.area },
        polygons: decodePolygons(row.shape).map((p) => p.map((ring) => bandRing(ring))),
      };
      this.shapes.set(id, shape);
    }
    return shape;
  }
}

/** One finished import file, opened read-only. */
export class GeodataFile {
  readonly db: Database.Database;
  private statements = new Map<string, Database.Statement>();

  constructor(readonly file: string) {
    this.db = new Database(file, { readonly: true, fileMustExist: true });
  }

  private prepared(sql: string) {
    let s = this.statements.get(sql);
    if (!s) this.statements.set(sql, (s = this.db.prepare(sql)));
    return s;
  }

  meta(): Record<string, string> {
    const rows = this.prepared(`SELECT key, value FROM meta`).all() as { key: string; value: string }[];
    return Object.fromEntries(rows.map((r) => [r.key, r.value]));
  }

  private regions?: RegionLookup;

  /** Regions whose shape contains the point, smallest first. */
  regionsAt(lng: number, lat: number): StoredRegion[] {
    return (this.regions ??= new RegionLookup(this.db)).at(lng, lat);
  }

  /** Places whose bounding box meets the box. */
  placesIn(b: BBox, limit = -1): StoredPlace[] {
    const rows = this.prepared(
      `SELECT p.oid, p.name, p.categories, p.chainSlug, p.chainName, p.grp, p.lng, p.lat, p.shape
       FROM places_index i CROSS JOIN places p ON p.id = i.id
       WHERE i.minLng <= ? AND i.maxLng >= ? AND i.minLat <= ? AND i.maxLat >= ? LIMIT ?`,
    ).all(b.maxLng, b.minLng, b.maxLat, b.minLat, limit) as PlaceRow[];
    return rows.map(placeFromRow);
  }

  /**
   * Places with one of `tags` whose location lies in the box, without outlines (search):
   * through the tag index, so a rare category near a busy city reads only its own places.
   */
  placesTaggedIn(b: BBox, tags: string[]): StoredPlace[] {
    const rows = this.prepared(
      `SELECT DISTINCT p.oid, p.name, p.categories, p.chainSlug, p.chainName, p.grp, p.lng, p.lat, NULL AS shape
       FROM place_tags t CROSS JOIN places p ON p.id = t.place
       WHERE t.tag IN (SELECT value FROM json_each(?)) AND t.lng BETWEEN ? AND ? AND t.lat BETWEEN ? AND ?`,
    ).all(JSON.stringify(tags), b.minLng, b.maxLng, b.minLat, b.maxLat) as PlaceRow[];
    return rows.map(placeFromRow);
  }

  /** Places whose location lies in the box, without outlines (search). */
  placePointsIn(b: BBox): StoredPlace[] {
    const rows = this.prepared(
      `SELECT p.oid, p.name, p.categories, p.chainSlug, p.chainName, p.grp, p.lng, p.lat, NULL AS shape
       FROM places_index i CROSS JOIN places p ON p.id = i.id
       WHERE i.minLng <= ? AND i.maxLng >= ? AND i.minLat <= ? AND i.maxLat >= ?
         AND p.lng BETWEEN ? AND ? AND p.lat BETWEEN ? AND ?`,
    ).all(b.maxLng, b.minLng, b.maxLat, b.minLat, b.minLng, b.maxLng, b.minLat, b.maxLat) as PlaceRow[];
    return rows.map(placeFromRow);
  }

  placeById(oid: string): StoredPlace | undefined {
    const row = this.prepared(
      `SELECT oid, name, categories, chainSlug, chainName, grp, lng, lat, shape FROM places WHERE oid = ?`,
    ).get(oid) as PlaceRow | undefined;
    return row && placeFromRow(row);
  }

  /** Addresses whose point lies in the box. */
  addressesIn(b: BBox): AddressRecord[] {
    const rows = this.prepared(
      `SELECT a.number, a.street, a.unit, a.postcode, a.city, a.lng, a.lat
       FROM addresses_index i CROSS JOIN addresses a ON a.id = i.id
       WHERE i.minLng <= ? AND i.maxLng >= ? AND i.minLat <= ? AND i.maxLat >= ?`,
    ).all(b.maxLng, b.minLng, b.maxLat, b.minLat) as Record<keyof AddressRecord, string | number | null>[];
    return rows.map((r) => withoutNulls<AddressRecord>(r));
  }

  /** Every address that names its street, in import order (evaluation and benchmarks). */
  streetAddresses(): (AddressRecord & { street: string })[] {
    const rows = this.prepared(
      `SELECT number, street, unit, postcode, city, lng, lat FROM addresses WHERE street IS NOT NULL ORDER BY id`,
    ).all() as Record<string, unknown>[];
    return rows.map((r) => withoutNulls<AddressRecord & { street: string }>(r));
  }

  private postcodes?: PostcodePoints | null;

  /**
   * The addresses that carry a postcode, as a KD-tree over their points (built on first use,
   * once per file: about a millisecond per thousand addresses; 28 bytes each), with the import's
   * extent. Null when no address has a postcode.
   */
  postcodePoints(): PostcodePoints | null {
    if (this.postcodes === undefined) this.postcodes = postcodePointsOf(this.db);
    return this.postcodes;
  }

  /**
   * The road graph, read once per file (typed arrays copied out of the blobs), or null when the
   * import has none (made before it existed, or without roads).
   */
  roadGraph(): RoadGraph | null {
    if (this.graph !== undefined) return this.graph;
    if (Number(this.meta().format ?? 1) < ROAD_GRAPH_FORMAT) return (this.graph = null);
    const rows = this.db.prepare(`SELECT part, data FROM road_graph`).all() as {
      part: string;
      data: Buffer;
    }[];
    const parts = new Map(rows.map((r) => [r.part, r.data]));
    this.graph = parts.size ? graphFromParts(parts) : null;
    return this.graph;
  }

  private graph?: RoadGraph | null;

  /** The GTFS timetable of a transit import, read once per file, or null (not a transit import). */
  timetable(): Timetable | null {
    if (this.transitTimetable !== undefined) return this.transitTimetable;
    if (Number(this.meta().format ?? 1) < TRANSIT_FORMAT) return (this.transitTimetable = null);
    const rows = this.db.prepare(`SELECT part, data FROM transit`).all() as { part: string; data: Buffer }[];
    this.transitTimetable = rows.length
      ? timetableFromParts(new Map(rows.map((r) => [r.part, r.data])))
      : null;
    return this.transitTimetable;
  }

  private transitTimetable?: Timetable | null;

  /** Whether this import has the text index (imports made before it need to be imported again). */
  hasTextIndex(): boolean {
    return (this.textIndex ??= Number(this.meta().format ?? 1) >= TEXT_INDEX_FORMAT);
  }

  private textIndex?: boolean;

  /**
   * Documents of the text index matching an FTS5 expression (server/geocode/text-query.ts), of
   * the layers asked for.
   */
  searchText(match: string, layers: TextDocument["layer"][], limit: number): TextDocument[] {
    if (!this.hasTextIndex()) return [];
    return this.prepared(
      `SELECT d.id, d.layer, d.ref, d.lng, d.lat, d.kind, d.name, d.number, d.area
       FROM search_text t JOIN search d ON d.id = t.rowid
       WHERE search_text MATCH ? AND d.layer IN (SELECT value FROM json_each(?)) LIMIT ?`,
    ).all(match, JSON.stringify(layers), limit) as TextDocument[];
  }

  private vocabulary?: string[];

  /** Every token of the text index (for typo tolerance: server/geocode/typos.ts), read once. */
  textTokens(): string[] {
    if (!this.hasTextIndex()) return [];
    if (!this.vocabulary) {
      // A temporary table over the index's terms: allowed on a read-only file (it lives in temp).
      this.db.exec(
        `CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_vocab USING fts5vocab(main, 'search_text', 'row')`,
      );
      this.vocabulary = this.db.prepare(`SELECT term FROM temp.search_vocab`).pluck().all() as string[];
    }
    return this.vocabulary;
  }

  /** An address by its row (a text document's ref). */
  addressById(id: number): AddressRecord | undefined {
    const row = this.prepared(
      `SELECT number, street, unit, postcode, city, lng, lat FROM addresses WHERE id = ?`,
    ).get(id) as Record<keyof AddressRecord, string | number | null> | undefined;
    return row && withoutNulls<AddressRecord>(row);
  }

  /** A region by its row: its type, name and code. */
  regionById(id: number): StoredRegion | undefined {
    return (this.regions ??= new RegionLookup(this.db)).shape(id).region;
  }

  /**
   * Streets whose bounding box meets the box, with their lines (at most `limit`; -1: all), of the
   * given kinds (OSM highway values) only when `kinds` is given.
   */
  streetsIn(b: BBox, limit = -1, kinds?: readonly string[]): Omit<StreetRecord, "bbox">[] {
    const only = kinds ? ` AND s.kind IN (${kinds.map(() => "?").join(",")})` : "";
    const rows = this.prepared(
      `SELECT s.name, s.kind, s.shape FROM streets_index i CROSS JOIN streets s ON s.id = i.id
       WHERE i.minLng <= ? AND i.maxLng >= ? AND i.minLat <= ? AND i.maxLat >= ?${only} LIMIT ?`,
    ).all(b.maxLng, b.minLng, b.maxLat, b.minLat, ...(kinds ?? []), limit) as {
      name: string;
      kind: string;
      shape: Buffer;
    }[];
    return rows.map((r) => ({
      name: r.name,
      kind: r.kind,
      line: floatsOf(r.shape),
    }));
  }

  /** Streets of one name whose bounding box meets the box, with their lines. */
  streetsNamedIn(b: BBox, name: string): Omit<StreetRecord, "bbox">[] {
    const rows = this.prepared(
      `SELECT s.name, s.kind, s.shape FROM streets_index i CROSS JOIN streets s ON s.id = i.id
       WHERE i.minLng <= ? AND i.maxLng >= ? AND i.minLat <= ? AND i.maxLat >= ? AND s.name = ?`,
    ).all(b.maxLng, b.minLng, b.maxLat, b.minLat, name) as { name: string; kind: string; shape: Buffer }[];
    return rows.map((r) => ({ name: r.name, kind: r.kind, line: floatsOf(r.shape) }));
  }

  /** The imported regions meeting a box, as GeoJSON-ready polygons (for the dashboard map). */
  regionsIn(b: BBox, limit: number) {
    const rows = this.prepared(
      `SELECT r.id FROM regions_index i CROSS JOIN regions r ON r.id = i.id
       WHERE i.minLng <= ? AND i.maxLng >= ? AND i.minLat <= ? AND i.maxLat >= ? ORDER BY r.area DESC LIMIT ?`,
    )
      .pluck()
      .all(b.maxLng, b.minLng, b.maxLat, b.minLat, limit) as number[];
    return rows.map((id) => {
      const s = (this.regions ??= new RegionLookup(this.db)).shape(id);
      return { region: s.region, polygons: s.polygons.map((p) => p.map((r) => r.coords)) };
    });
  }

  close() {
    this.db.close();
  }
}
