import type { Bundle, BundleLayer } from "../bundles/file";
import type { Position } from "../geo/distance";

/**
 * The text index layer of a bundle (forward geocoding, autocomplete): one document per address,
 * street (its ways of one name near each other), place and region, with the row it stands for
 * ("ref" in the features layer's table) and a point. Its text is indexed in normalized tokens
 * (server/text/normalize.ts): name (street, place or region name), number (house number), area
 * (postcode, city). The same three texts as written are kept in "search" (ranking compares them
 * with what was typed), and "kind" says a region's type. Built by `buildTextIndex`
 * (./text-index-build.ts) at the end of every import.
 */
export const TEXT_INDEX: BundleLayer = {
  name: "text index",
  since: 3,
  schema: `
CREATE TABLE search (
  id INTEGER PRIMARY KEY, layer TEXT NOT NULL, ref INTEGER NOT NULL, lng REAL NOT NULL, lat REAL NOT NULL,
  kind TEXT, name TEXT NOT NULL, number TEXT NOT NULL, area TEXT NOT NULL
);
CREATE VIRTUAL TABLE search_text USING fts5(
  name, number, area, content='', columnsize=0, tokenize='unicode61 remove_diacritics 2', prefix='1 2 3'
);
`,
};

/**
 * Streets, places and regions in an FTS table of their own (format 8; `search_text` then holds
 * the addresses alone): a search of them no longer reads through the addresses' postings, where a
 * street's name is once per address of it ("Landstrasse" 28,750 times in a country of a hundred
 * towns), nor merges those of a prefix typed ("Lands", "St").
 */
export const TEXT_NAMES: BundleLayer = {
  name: "text index of names",
  since: 8,
  schema: `
CREATE VIRTUAL TABLE search_names USING fts5(
  name, number, area, content='', columnsize=0, tokenize='unicode61 remove_diacritics 2', prefix='1 2 3'
);
`,
};

/** The FTS table of a layer's documents; `named`: the bundle has TEXT_NAMES (every new one does). */
export const ftsTable = (layer: TextDocument["layer"], named: boolean) =>
  named && layer !== "address" ? "search_names" : "search_text";

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

/** Whether a bundle has the text index (imports made before it need to be imported again). */
export const hasTextIndex = (bundle: Bundle) => bundle.has(TEXT_INDEX);

/** The first and last document id of each layer. */
type LayerSpans = Partial<Record<TextDocument["layer"], { lo: number; hi: number }>>;

/**
 * A bundle of format 7 or older holds every layer in `search_text`: a search of some layers is
 * bounded to their span of ids (an import writes one layer after another, ./text-index-build.ts),
 * read once from the documents. Without the bound a street's name is matched in every address
 * of that street (28,750 documents of "Landstrasse" in a country of a hundred towns) and each is
 * read and left out by layer. From format 8 each read covers a table of its own.
 */
function layerSpans(bundle: Bundle): LayerSpans {
  return bundle.once("textLayerSpans", () => {
    const rows = bundle
      .statement(`SELECT layer, min(id) AS lo, max(id) AS hi FROM search GROUP BY layer`)
      .all<{ layer: TextDocument["layer"]; lo: number; hi: number }>();
    return Object.fromEntries(rows.map((r) => [r.layer, { lo: r.lo, hi: r.hi }]));
  });
}

/**
 * Documents of the text index matching an FTS5 expression (./text-query.ts), of the layers
 * asked for, from their FTS table: the first `limit` in the index's order, or with `near` the
 * `limit` nearest it (a street's name typed in a country of a hundred
 * towns: the town's own street, not the first towns' imported).
 */
export function matchDocuments(
  bundle: Bundle,
  match: string,
  layers: TextDocument["layer"][],
  limit: number,
  near?: Position,
): TextDocument[] {
  if (!hasTextIndex(bundle)) return [];
  const named = bundle.has(TEXT_NAMES);
  const byTable = new Map<string, TextDocument["layer"][]>();
  for (const layer of layers) {
    const table = ftsTable(layer, named);
    byTable.set(table, [...(byTable.get(table) ?? []), layer]);
  }
  const found = [...byTable].flatMap(([table, ls]) =>
    matchIn(bundle, table, match, ls, limit, near, named ? undefined : layerSpans(bundle)),
  );
  if (byTable.size === 1) return found;
  // Both tables: the nearest, or the first, of the two reads.
  if (near) found.sort((a, b) => planeDistance(a, near) - planeDistance(b, near));
  return found.slice(0, limit);
}

/** The square of a plane's distance, a degree of longitude shortened by the latitude's cosine. */
const planeDistance = (d: { lng: number; lat: number }, [lng, lat]: Position) =>
  (d.lng - lng) ** 2 * Math.cos((lat * Math.PI) / 180) ** 2 + (d.lat - lat) ** 2;

function matchIn(
  bundle: Bundle,
  table: string,
  match: string,
  layers: TextDocument["layer"][],
  limit: number,
  near?: Position,
  spans?: LayerSpans,
): TextDocument[] {
  let lo = 0;
  let hi = Number.MAX_SAFE_INTEGER;
  if (spans) {
    const asked = layers.flatMap((l) => spans[l] ?? []);
    if (!asked.length) return [];
    lo = Math.min(...asked.map((s) => s.lo));
    hi = Math.max(...asked.map((s) => s.hi));
  }
  const select = `SELECT d.id, d.layer, d.ref, d.lng, d.lat, d.kind, d.name, d.number, d.area
       FROM ${table} t JOIN search d ON d.id = t.rowid
       WHERE ${table} MATCH ? AND t.rowid BETWEEN ? AND ?
         AND d.layer IN (SELECT value FROM json_each(?))`;
  if (!near)
    return bundle
      .statement(`${select} LIMIT ?`)
      .all<TextDocument>(match, lo, hi, JSON.stringify(layers), limit);
  const [lng, lat] = near;
  const squeeze = Math.cos((lat * Math.PI) / 180) ** 2;
  return bundle
    .statement(`${select} ORDER BY (d.lng - ?) * (d.lng - ?) * ? + (d.lat - ?) * (d.lat - ?) LIMIT ?`)
    .all<TextDocument>(match, lo, hi, JSON.stringify(layers), lng, lng, squeeze, lat, lat, limit);
}

/** Every token of the text index (for typo tolerance: ./typos.ts), read once per file. */
export function textTokens(bundle: Bundle): string[] {
  if (!hasTextIndex(bundle)) return [];
  return bundle.once("textTokens", () => {
    const tables = bundle.has(TEXT_NAMES) ? ["search_text", "search_names"] : ["search_text"];
    // Temporary tables over the index's terms: allowed on a read-only file (they live in temp).
    for (const table of tables) {
      bundle.temporary(
        `CREATE VIRTUAL TABLE IF NOT EXISTS temp.${table}_vocab USING fts5vocab(main, '${table}', 'row')`,
      );
    }
    return bundle
      .statement(tables.map((table) => `SELECT term FROM temp.${table}_vocab`).join(" UNION "))
      .column<string>();
  });
}
