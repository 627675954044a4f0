import type { Bundle, BundleLayer } from "../bundles/file";

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

/**
 * Documents of the text index matching an FTS5 expression (./text-query.ts), of the layers
 * asked for.
 */
export function matchDocuments(
  bundle: Bundle,
  match: string,
  layers: TextDocument["layer"][],
  limit: number,
): TextDocument[] {
  if (!hasTextIndex(bundle)) return [];
  return bundle
    .statement(
      `SELECT d.id, d.layer, d.ref, d.lng, d.lat, d.kind, d.name, d.number, d.area
       FROM search_text t JOIN search d ON d.id = t.rowid
       WHERE search_text MATCH ? AND d.layer IN (SELECT value FROM json_each(?)) LIMIT ?`,
    )
    .all<TextDocument>(match, JSON.stringify(layers), limit);
}

/** Every token of the text index (for typo tolerance: ./typos.ts), read once per file. */
export function textTokens(bundle: Bundle): string[] {
  if (!hasTextIndex(bundle)) return [];
  return bundle.once("textTokens", () => {
    // A temporary table over the index's terms: allowed on a read-only file (it lives in temp).
    bundle.temporary(
      `CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_vocab USING fts5vocab(main, 'search_text', 'row')`,
    );
    return bundle.statement(`SELECT term FROM temp.search_vocab`).column<string>();
  });
}
