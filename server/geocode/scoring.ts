import { type Address } from "../text/address";
import { type Layer, type Term } from "./candidate";
import { fold, indexTokens, nameKey, words } from "../text/normalize";
import { houseNumberLike } from "./terms";

/**
 * Scoring a candidate against a query's terms (./forward.ts, step 3): the words it matches in
 * its name, number or area and those it lacks, how much of its name was typed, and its layer.
 */

/** What a word in a candidate's text matched: where, and how well (1 exact, less for a typo). */
interface Match {
  column: "name" | "number" | "area";
  quality: number;
}

const NAME_WEIGHT = 1;
export const NUMBER_WEIGHT = 1;
const AREA_WEIGHT = 0.7;

/**
 * Words that say what kind of street (or town: "New York City") a name is, and articles, in the
 * languages of the shared extracts and their neighbours: how much of a name was typed is counted
 * without them ("Tarra" is most of "Avinguda de Tarragona", "Colle" all of "Rue de la Colle", and
 * "New York" all of GeoNames' "New York City").
 */
const GENERIC_WORDS = new Set(
  (
    "street road avenue lane drive place square boulevard way the of city " +
    "strasse weg gasse platz allee ring am an auf der die das dem den im in zum zur bei " +
    "rue avenue chemin route place boulevard impasse allee quai de du des la le les l d " +
    "carrer avinguda placa carretera cami passeig calle avenida plaza camino paseo del el els " +
    "via viale piazza vicolo corso di della delle dei degli lo"
  ).split(" "),
);

/** A house number typed as the candidate's is written, not one part of it. */
const NUMBER_EXACT = 0.2;

/** A typed word the candidate lacks. */
const MISSING = 1;

/** A house number the street does not have: the street is still the expected answer. */
const MISSING_NUMBER = 0.5;

/** How much typing a candidate's whole name counts for (over half of it). */
const COVERAGE_WEIGHT = 0.5;

/** A small prior per layer, for equally matched candidates: a town before a street named after it. */
export const LAYER_PRIOR: Record<Layer, number> = {
  country: 0.35,
  state: 0.3,
  locality: 0.2,
  county: 0.15,
  postalCode: 0.15,
  street: 0.1,
  place: 0.05,
  address: 0,
};

/** The index columns a term of each role is matched in. */
export const ROLE_COLUMNS: Record<Term["role"], readonly Match["column"][]> = {
  number: ["number"],
  postcode: ["area"],
  name: ["name"],
  any: ["name", "number", "area"],
};

/** What `make` derives from a text, remembered for the last 20,000 texts or so (texts repeat across candidates and keystrokes). */
function rememberedByText<T>(make: (text: string) => T): (text: string) => T {
  const known = new Map<string, T>();
  return (text) => {
    let value = known.get(text);
    if (value === undefined) {
      if (known.size >= 20_000) known.clear();
      known.set(text, (value = make(text)));
    }
    return value;
  };
}

/**
 * Which tokens a text is indexed under, as a set; remembered, since candidates share their
 * areas' texts ("9490 Vaduz Oberland Liechtenstein") and a street's name.
 */
export const tokenSet = rememberedByText((text) => new Set(indexTokens(text)));

/** How well a term matches a set of tokens: 1 a whole word, 0.9 the start of one, 0.8 a typo. */
function matchIn(t: Term, tokens: Set<string>): number {
  if (t.alternatives.some((a) => tokens.has(a))) return 1;
  if (t.prefix) {
    for (const a of t.alternatives) for (const token of tokens) if (token.startsWith(a)) return 0.9;
  }
  for (const c of t.corrections) if (tokens.has(c)) return 0.8;
  return 0;
}

/** How many terms each group of a query has, counted once per query. */
const groupSizeOf = new WeakMap<Term[], Map<number, number>>();

function groupSizes(terms: Term[]): Map<number, number> {
  let sizes = groupSizeOf.get(terms);
  if (!sizes) {
    groupSizeOf.set(terms, (sizes = new Map()));
    for (const t of terms) sizes.set(t.group, (sizes.get(t.group) ?? 0) + 1);
  }
  return sizes;
}

/** A name's words without the generic ones (all of them when all are generic), remembered. */
const meaningfulWords = rememberedByText((name) => {
  const all = words(name);
  const meaningful = all.filter((w) => !GENERIC_WORDS.has(w));
  return meaningful.length ? meaningful : all;
});

interface Scored {
  score: number;
  /** the terms not matched */
  missing: Term[];
  /** whether some term matched in the name */
  named: boolean;
  /** the terms matched in the house number */
  numbered: Term[];
}

/**
 * How well a text (name, number, area) answers the terms: each term matched in the best column
 * its role allows, the share of the name typed, a penalty per term not matched.
 */
export function scoreText(terms: Term[], name: string, number: string, area: string): Scored {
  const columns = { name: tokenSet(name), number: tokenSet(number), area: tokenSet(area) };
  let score = 0;
  let named = false;
  const missing: Term[] = [];
  const nameMatches: Term[] = [];
  const numberMatches: Term[] = [];
  const groupSize = groupSizes(terms);
  for (const t of terms) {
    let best: Match | undefined;
    for (const column of ROLE_COLUMNS[t.role]) {
      const quality = matchIn(t, columns[column]);
      // An area's name of several words weighs as one word ("Andorra la Vella" no more than "Vaduz").
      const weight =
        column === "name"
          ? NAME_WEIGHT
          : column === "number"
            ? NUMBER_WEIGHT
            : AREA_WEIGHT / groupSize.get(t.group)!;
      if (quality && (!best || quality * weight > best.quality)) best = { column, quality: quality * weight };
    }
    if (!best) missing.push(t);
    else {
      score += best.quality;
      if (best.column === "name") {
        named = true;
        nameMatches.push(t);
      }
      if (best.column === "number") numberMatches.push(t);
    }
  }
  // The share of the candidate's name that was typed: "Landstrasse" before "Landstrasse Ost".
  // While typing, a name that starts with what was typed of it is all typed so far
  // ("Fürst" is as good a start of "Fürst-Johannes-Strasse" as of "Fürstenweg").
  const nameWords = meaningfulWords(name);
  const typed = nameMatches.map((t) => t.word).join("");
  const typedStart =
    nameMatches.some((t) => t.prefix) &&
    (nameKey(name).startsWith(typed) || nameWords.join("").startsWith(typed));
  if (nameWords.length) {
    const covered = nameWords.filter((w) => {
      const tokens = tokenSet(w);
      return nameMatches.some((t) => matchIn(t, tokens) > 0);
    });
    score += COVERAGE_WEIGHT * (typedStart ? 1 : covered.length / nameWords.length);
  }
  // "50" is number 50 rather than the range "50-78" that includes it.
  const house = fold(number.split(" ")[0] ?? "");
  if (house && numberMatches.some((t) => t.word === house)) score += NUMBER_EXACT;
  return { score, missing, named, numbered: numberMatches };
}

/**
 * Radar's confidence of an answer that is not an address: `exact` when it accounts for every word
 * typed, `fallback` when it is coarser than what was asked ("10 Downing Street, London" answered
 * by London: the street was not found).
 */
export const answered = (missing: readonly Term[]): Address["confidence"] =>
  missing.length ? "fallback" : "exact";

/** What the words not matched cost: a house number less (the street still answers), an area's name once. */
export function penalty(missing: Term[]): number {
  let sum = 0;
  const groups = new Set<number>();
  for (const t of missing) {
    if (groups.has(t.group)) continue;
    groups.add(t.group);
    sum += houseNumberLike(t) ? MISSING_NUMBER : MISSING;
  }
  return sum;
}
