import type { Bundle } from "../bundles/file";
import { type TextDocument, matchDocuments } from "./text-index";
import { type Position } from "../geo/distance";
import { type Term } from "./candidate";
import { anyOf } from "./text-query";
import { isNumeric, houseNumberLike } from "./terms";
import { ROLE_COLUMNS } from "./scoring";

/**
 * The full-text side of forward geocoding (./forward.ts, step 2): the index expression of a
 * query's terms, every word or all but one, and reading candidates from an import's text index.
 */

/** Candidates read from one import per query of the index. */
const READ_LIMIT = 300;

/**
 * With `near`, the nearest this many: the bias of `near` halves at 10 km, and the nearest hundred
 * hold every answer the nearest 300 did (eval:geocode on the shared extracts, 400 typed streets
 * on 100 copies of Liechtenstein); scoring them is most of what a keystroke costs.
 */
const NEAR_READ_LIMIT = 100;

/** The FTS5 expression for one term, in the columns its role allows (one column: scoped to it). */
function termExpression(t: Term): string {
  const columns = ROLE_COLUMNS[t.role];
  const scope = columns.length === 1 ? `${columns[0]} : ` : "";
  return `${scope}${anyOf([...t.alternatives, ...t.corrections], t.prefix)}`;
}

/** All the terms, and at least one of the word terms in the name. */
function expression(terms: Term[]): string | undefined {
  const named = terms.filter((t) => t.role === "any" && !isNumeric(t.word));
  const anchor = named.length ? named : terms.filter((t) => t.role === "any");
  if (!anchor.length) return undefined;
  // One word that must be in the name: it is sought there only.
  if (anchor.length === 1) {
    const [only] = anchor;
    return [...terms.filter((t) => t !== only).map(termExpression), `name : ${termExpression(only!)}`].join(
      " AND ",
    );
  }
  const inName = anchor.map((t) => anyOf([...t.alternatives, ...t.corrections], t.prefix)).join(" OR ");
  return [...terms.map(termExpression), `name : (${inName})`].join(" AND ");
}

/**
 * The documents matching all terms (`relaxed` false), or all terms but one (`relaxed` true). Only
 * addresses have house numbers: the other layers are sought without them.
 */
export function retrieve(file: Bundle, terms: Term[], relaxed: boolean, near?: Position): TextDocument[] {
  const found = new Map<number, TextDocument>();
  const read = (subset: Term[], layers: TextDocument["layer"][]) => {
    const expr = expression(subset);
    if (!expr) return;
    for (const doc of matchDocuments(file, expr, layers, near ? NEAR_READ_LIMIT : READ_LIMIT, near))
      found.set(doc.id, doc);
  };
  // Leaving out one word, or one area's name of several words.
  const subsets = (ts: Term[]) => {
    if (!relaxed) return [ts];
    const groups = [...new Set(ts.map((t) => t.group))];
    return groups.length > 1 ? groups.map((g) => ts.filter((t) => t.group !== g)) : [];
  };
  if (terms.some((t) => t.role === "number" || (t.role === "any" && isNumeric(t.word)))) {
    for (const subset of subsets(terms)) if (subset.some(houseNumberLike)) read(subset, ["address"]);
  }
  for (const subset of subsets(terms.filter((t) => t.role !== "number"))) {
    read(subset, ["street", "place", "region"]);
  }
  return [...found.values()];
}
