import type { Bundle } from "../bundles/file";
import { features } from "../geodata/features";
import { type TextDocument, hasTextIndex, matchDocuments, textTokens } from "./text-index";
import { type Position, bboxAround, haversine } from "../geo/distance";
import { nearestOnPath } from "../geo/polygon";
import { positionsOf } from "../geo/rings";
import { imports } from "../bundles/folder";
import { processOnce } from "../process-once";
import { type Address, addressLabel, answeredAddress, pointFields } from "../text/address";
import { areaFieldsOf } from "./areas";
import {
  type Candidate,
  type CandidateSource,
  LAYERS,
  type Layer,
  type Term,
  type TextSearch,
} from "./candidate";
import { embeddedCandidates } from "./embedded-names";
import { fold, indexTokens, nameKey, queryTerms, words } from "../text/normalize";
import { parseAddress } from "./parse";
import { anyOf, quote } from "./text-query";
import { TypoIndex } from "./typos";

/**
 * Forward geocoding and autocomplete (docs/geocoding.md): typed text to ranked addresses.
 *
 * 1. The text is split into words, each with the alternatives it may stand for (abbreviations,
 *    German compounds), and read by pelias-parser, whose house number and postcode tell which
 *    column a digit word must match. Words no import knows get their one-letter corrections.
 * 2. Candidates come from each import's text index: documents matching every word, and, so that
 *    one word the data lacks ("Vaduz" for an address mapped without a city) or a typo does not
 *    empty the answer, documents matching all words but one. Every candidate must match a word
 *    in its name. The embedded cities, countries and US states are candidates everywhere.
 * 3. Each candidate is scored by the words it matches (in its name, number or area) and those
 *    it does not, how much of its own name was typed, and its layer. A street whose house number
 *    was asked for is placed between the known numbers around it (`interpolated`), or stays a
 *    street (`fallback`).
 */

export { LAYERS };
export type { Layer, TextSearch };

/** The longest query accepted (characters). */
export const MAX_QUERY_LENGTH = 256;

/** What a word in a candidate's text matched: where, and how well (1 exact, less for a typo). */
interface Match {
  column: "name" | "number" | "area";
  quality: number;
}

const NAME_WEIGHT = 1;
const NUMBER_WEIGHT = 1;
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
const LAYER_PRIOR: Record<Layer, number> = {
  country: 0.35,
  state: 0.3,
  locality: 0.2,
  county: 0.15,
  postalCode: 0.15,
  street: 0.1,
  place: 0.05,
  address: 0,
};
/** Candidates read from one import per query of the index. */
const READ_LIMIT = 300;
/**
 * With `near`, the nearest this many: the bias of `near` halves at 10 km, and the nearest hundred
 * hold every answer the nearest 300 did (eval:geocode on the shared extracts, 400 typed streets
 * on 100 copies of Liechtenstein); scoring them is most of what a keystroke costs.
 */
const NEAR_READ_LIMIT = 100;

const isNumeric = (word: string) => /\d/.test(word);

// Per import file, shared by the forward and autocomplete route bundles (server/process-once.ts).
const typoIndexes = processOnce("typo-indexes", () => new WeakMap<Bundle, TypoIndex>());
const typoIndex = (file: Bundle) => {
  let index = typoIndexes.get(file);
  if (!index) typoIndexes.set(file, (index = new TypoIndex(textTokens(file))));
  return index;
};

/** Directions as US street names begin with them, and their short forms. */
const DIRECTIONS: readonly (readonly [string, string])[] = [
  ["north", "n"],
  ["south", "s"],
  ["east", "e"],
  ["west", "w"],
];

/**
 * While typing, a direction written in part before the rest of the name ("Eas 22", "Wes 20th
 * St"): it stands for the direction, whole and short. Only the last word is otherwise a prefix.
 */
function directionalTyped(word: string): string[] {
  if (word.length < 3) return [];
  const direction = DIRECTIONS.find(([whole]) => whole.length > word.length && whole.startsWith(word));
  return direction ? [...direction] : [];
}

/** A figure that may be a house number (not a postcode, not part of a street's name). */
const houseNumberLike = (t: Term) => isNumeric(t.word) && t.role !== "postcode" && t.role !== "name";

/** A direction, whole, short, or (3 letters or more) in part. */
const isDirection = (word: string) =>
  DIRECTIONS.some(([whole, short]) => word === short || (word.length >= 3 && whole.startsWith(word)));

/** The words of a query as terms, with their roles from the parse. */
function termsOf(text: string, prefix: boolean, files: Bundle[]): Term[] {
  const parsed = parseAddress(text);
  const typed = words(text);
  const alternatives = queryTerms(text);
  // While typing, the last word is a prefix unless the user has moved on (a space, a comma).
  const open = prefix && /[\p{L}\p{N}]$/u.test(text);
  const terms: Term[] = typed.map((word, i) => {
    const role = !isNumeric(word)
      ? "any"
      : parsed.housenumber.has(word)
        ? "number"
        : parsed.postcode.has(word)
          ? "postcode"
          : "any";
    const last = open && i === typed.length - 1;
    // A word some import knows is no typo; one none knows may be one letter off.
    const known = files.some((f) => typoIndex(f).has(word));
    const corrections =
      last || known ? [] : [...new Set(files.flatMap((f) => typoIndex(f).corrections(word)))];
    const typing = prefix && !last ? directionalTyped(word) : [];
    // While typing, a figure right after a direction is the street's ("East 22" → East 22nd
    // Street): US house numbers come before the street's name.
    const afterDirection = prefix && last && i > 0 && isDirection(typed[i - 1]!);
    return {
      word,
      alternatives: [...alternatives[i]!, ...typing],
      corrections,
      role: afterDirection && isNumeric(word) ? "name" : role,
      prefix: last,
      group: i,
    };
  });
  // The words of an area's name, found in order among those typed, form one group: the areas
  // the parser found, and what follows the last comma (where the parser found nothing there).
  const afterComma = text.includes(",")
    ? words(text.slice(text.lastIndexOf(",") + 1)).filter((w) => !isNumeric(w))
    : [];
  const areas = [...parsed.areas];
  if (afterComma.length > 1 && !areas.some((a) => a.length >= afterComma.length)) areas.unshift(afterComma);
  // "avinguda sant antoni 38 ad40 la massana": the words after a postcode that follows the house
  // number name the town.
  const numbers = typed.flatMap((w, i) => (isNumeric(w) ? [i] : []));
  const afterPostcode = numbers.length >= 2 ? typed.slice(numbers[numbers.length - 1]! + 1) : [];
  if (afterPostcode.length > 1 && !areas.some((a) => a.length >= afterPostcode.length))
    areas.push(afterPostcode);
  for (const area of areas) {
    if (area.length < 2) continue;
    const start = terms.findIndex(
      (_, i) =>
        area.every((w, k) => terms[i + k]?.word === w) &&
        terms.slice(i, i + area.length).every((t) => t.group === terms.indexOf(t)),
    );
    if (start >= 0) for (let k = 1; k < area.length; k++) terms[start + k]!.group = terms[start]!.group;
  }
  return terms;
}

/** The index columns a term of each role is matched in. */
const ROLE_COLUMNS: Record<Term["role"], readonly Match["column"][]> = {
  number: ["number"],
  postcode: ["area"],
  name: ["name"],
  any: ["name", "number", "area"],
};

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
function retrieve(file: Bundle, terms: Term[], relaxed: boolean, near?: Position): TextDocument[] {
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

interface PostcodeArea {
  code: string;
  position: Position;
}

const postcodeAreas = processOnce("postcode-areas", () => new WeakMap<Bundle, Map<string, PostcodeArea>>());

/**
 * The postcodes an import's addresses carry, each at the address nearest the middle of its
 * addresses: where no postal-code boundary is mapped, this is what a postcode is found by.
 */
function postcodesOf(file: Bundle): Map<string, PostcodeArea> {
  let areas = postcodeAreas.get(file);
  if (areas) return areas;
  areas = new Map();
  const points = features(file).postcodePoints();
  if (points) {
    const sums = points.codes.map(() => ({ lng: 0, lat: 0, n: 0 }));
    points.codeOf.forEach((c, i) => {
      sums[c]!.lng += points.lngs[i]!;
      sums[c]!.lat += points.lats[i]!;
      sums[c]!.n++;
    });
    const best = points.codes.map(() => ({ d: Infinity, i: -1 }));
    points.codeOf.forEach((c, i) => {
      const s = sums[c]!;
      const d = haversine(s.lng / s.n, s.lat / s.n, points.lngs[i]!, points.lats[i]!);
      if (d < best[c]!.d) best[c] = { d, i };
    });
    points.codes.forEach((code, c) => {
      const i = best[c]!.i;
      areas!.set(fold(code), { code, position: [points.lngs[i]!, points.lats[i]!] });
    });
  }
  postcodeAreas.set(file, areas);
  return areas;
}

/** Postcodes typed (whole, or while typing their start) that an import's addresses carry. */
function postcodeCandidates(file: Bundle, terms: Term[]): Candidate[] {
  const codes = postcodesOf(file);
  const out: Candidate[] = [];
  for (const t of terms) {
    if (t.role === "number" || t.role === "name" || !isNumeric(t.word)) continue;
    const hits = t.prefix
      ? [...codes.entries()].filter(([k]) => k.startsWith(t.word)).map(([, v]) => v)
      : [codes.get(t.word)].filter((v) => v !== undefined);
    for (const area of hits) {
      const { score, missing } = scoreText(terms, area.code, "", "");
      out.push({
        layer: "postalCode",
        score: score - penalty(missing) + LAYER_PRIOR.postalCode,
        confidence: answered(missing),
        position: area.position,
        key: `postalCode:${fold(area.code)}`,
        fields: () => ({ postalCode: area.code }),
      });
    }
  }
  return out;
}

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
const tokenSet = rememberedByText((text) => new Set(indexTokens(text)));

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
function scoreText(terms: Term[], name: string, number: string, area: string): Scored {
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
const answered = (missing: readonly Term[]): Address["confidence"] => (missing.length ? "fallback" : "exact");

/** What the words not matched cost: a house number less (the street still answers), an area's name once. */
function penalty(missing: Term[]): number {
  let sum = 0;
  const groups = new Set<number>();
  for (const t of missing) {
    if (groups.has(t.group)) continue;
    groups.add(t.group);
    sum += houseNumberLike(t) ? MISSING_NUMBER : MISSING;
  }
  return sum;
}

/** A region document's layer (imported boundaries); DMAs are not geocoding answers. */
const REGION_LAYERS: Record<string, Layer> = {
  country: "country",
  state: "state",
  county: "county",
  city: "locality",
  postalCode: "postalCode",
};

/** The numeric part of a house number ("12a" → 12), or NaN. */
const numericPart = (number: string) => Number.parseInt(number, 10);

/**
 * The addresses of a street: those of the same name near the street's point whose areas include
 * the street's (the addresses of "Landstrasse" in Vaduz, not those of "Landstrasse" in Schaan),
 * each with its house number (the first word of the document's number: the unit follows it).
 */
function addressesOf(
  file: Bundle,
  street: TextDocument,
  named: Map<string, TextDocument[]>,
): (TextDocument & { house: string })[] {
  const name = nameKey(street.name);
  // The areas' names (not postcodes: a street may have several) the addresses must lie in too:
  // sought in the index with the name, so that a name every town has ("Landstrasse" in a
  // country of a hundred towns) reads one town's addresses, not the country's.
  const areas = [...tokenSet(street.area)].filter((w) => !isNumeric(w));
  const key = `${name}|${areas.join(" ")}`;
  let docs = named.get(key);
  if (!docs) {
    const expr = [
      ...words(street.name).map((w) => `name : ${quote(w)}`),
      ...areas.map((w) => `area : ${quote(w)}`),
    ].join(" AND ");
    docs = expr ? matchDocuments(file, expr, ["address"], 5000).filter((d) => nameKey(d.name) === name) : [];
    named.set(key, docs);
  }
  const out: (TextDocument & { house: string })[] = [];
  for (const doc of docs) {
    if (haversine(doc.lng, doc.lat, street.lng, street.lat) > 3000) continue;
    const own = tokenSet(doc.area);
    if (!areas.every((w) => own.has(w))) continue;
    out.push({ ...doc, house: doc.number.split(" ")[0]! });
  }
  return out;
}

/**
 * Where house number `number` is on a street: the known address with that number, or a point
 * between the nearest known numbers below and above it (on the same side: same parity, where
 * the street has them), or undefined when the number is outside the street's known range.
 */
export function interpolate(
  known: { number: string; lng: number; lat: number }[],
  number: string,
): { position: Position; exact: boolean } | undefined {
  const wanted = numericPart(number);
  if (!Number.isFinite(wanted)) return undefined;
  const exact = known.find((k) => fold(k.number) === fold(number));
  if (exact) return { position: [exact.lng, exact.lat], exact: true };
  const numbered = known
    .map((k) => ({ ...k, n: numericPart(k.number) }))
    .filter((k) => Number.isFinite(k.n) && k.n !== wanted);
  const around = (pool: typeof numbered) => {
    const below = pool.filter((k) => k.n < wanted).sort((a, b) => b.n - a.n)[0];
    const above = pool.filter((k) => k.n > wanted).sort((a, b) => a.n - b.n)[0];
    return below && above ? { below, above } : undefined;
  };
  const pair = around(numbered.filter((k) => k.n % 2 === wanted % 2)) ?? around(numbered);
  if (!pair) return undefined;
  const { below, above } = pair;
  // Not across a whole town: numbers far apart in number or on the ground say little.
  if (above.n - below.n > 100 || haversine(below.lng, below.lat, above.lng, above.lat) > 1000)
    return undefined;
  const f = (wanted - below.n) / (above.n - below.n);
  return {
    position: [below.lng + f * (above.lng - below.lng), below.lat + f * (above.lat - below.lat)],
    exact: false,
  };
}

/** The point of a street nearest its middle, on the street itself. */
function pointOnStreet(file: Bundle, doc: TextDocument): Position {
  // A street known only from its addresses' addr:street has no line: its addresses' middle.
  if (doc.kind === "addresses") return [doc.lng, doc.lat];
  for (const reach of [300, 3000]) {
    let best: { distance: number; position: Position } | undefined;
    for (const s of features(file).streetsNamedIn(bboxAround(doc.lng, doc.lat, reach), doc.name)) {
      const hit = nearestOnPath(doc.lng, doc.lat, positionsOf(s.line));
      if (!best || hit.distance < best.distance) best = hit;
    }
    if (best) return best.position;
  }
  return [doc.lng, doc.lat];
}

function addressCandidate(
  file: Bundle,
  doc: TextDocument,
  score: number,
  confidence: Address["confidence"],
  position?: Position,
  number?: string,
): Candidate {
  const house = number ?? doc.number.split(" ")[0]!;
  // The row itself only for the answers given (ranking reads the document's copy of its text), once.
  let row: ReturnType<ReturnType<typeof features>["addressById"]> | null = null;
  const record = () => (row ??= features(file).addressById(doc.ref));
  return {
    layer: "address",
    score,
    confidence,
    position: position ?? [doc.lng, doc.lat],
    key: `address:${fold(doc.name)}:${fold(house)}:${Math.round(doc.lng * 1e4)}:${Math.round(doc.lat * 1e4)}`,
    tagged: () => record()?.country,
    fields: (areas) => {
      const r = record();
      const n = number ?? r?.number ?? house;
      return {
        ...(r?.city && { city: r.city }),
        ...(r?.postcode && { postalCode: r.postcode }),
        number: n,
        ...(r?.street && { street: r.street }),
        addressLabel: addressLabel(n, r?.street, number ? undefined : r?.unit, areas.countryCode),
      };
    },
  };
}

/** Streets whose house number is looked for along them; the others stay streets. */
const INTERPOLATED_STREETS = 5;

interface StreetHit {
  doc: TextDocument;
  matched: number;
  missing: Term[];
  score: number;
}

/**
 * A street as an answer: where a house number was asked for and not matched, the address found
 * along it (exact or interpolated) when `interpolateIt`, else the street itself.
 */
function streetCandidate(
  file: Bundle,
  hit: StreetHit,
  interpolateIt: boolean,
  named: Map<string, TextDocument[]>,
): Candidate | undefined {
  const { doc, matched, missing } = hit;
  const numberTerm = missing.find((t) => houseNumberLike(t) && /^\d+[a-z]?$/.test(t.word));
  if (numberTerm && interpolateIt) {
    const known = addressesOf(file, doc, named);
    const at = interpolate(
      known.map((k) => ({ number: k.house, lng: k.lng, lat: k.lat })),
      numberTerm.word,
    );
    if (at) {
      const rest = missing.filter((t) => t !== numberTerm);
      const score = matched + NUMBER_WEIGHT * (at.exact ? 1 : 0.9) - penalty(rest) + LAYER_PRIOR.address;
      const nearest = known.reduce((a, b) =>
        haversine(a.lng, a.lat, ...at.position) <= haversine(b.lng, b.lat, ...at.position) ? a : b,
      );
      const confidence = at.exact ? "exact" : "interpolated";
      const number = at.exact ? undefined : numberTerm.word;
      return addressCandidate(file, nearest, score, confidence, at.position, number);
    }
  }
  return {
    layer: "street",
    score: hit.score,
    confidence: "fallback",
    position: [doc.lng, doc.lat],
    // The document's point is the middle of the street's box: the answer is on the street.
    refine: () => pointOnStreet(file, doc),
    // One street per name and town: a long street's ways may make several documents. Made when
    // asked: only the candidates ranked high enough to be answers are asked.
    get key() {
      return `street:${nameKey(doc.name)}:${words(doc.area)
        .filter((w) => !isNumeric(w))
        .join(" ")}`;
    },
    fields: () => ({ street: doc.name, addressLabel: doc.name }),
  };
}

/**
 * Candidates from one import's text index: from the documents matching the whole query, or, when
 * they give none, from those matching all of it but one word. The relaxed reads are fallbacks, as
 * in Pelias: a word the data lacks or a mistyped town must not empty the answer, but where the
 * whole query is found they add only weaker candidates, and in a country of many towns they read
 * a street's name everywhere ("Landstrasse 10" without its town is every town's Landstrasse 10).
 */
function importCandidates(file: Bundle, terms: Term[], near?: Position): Candidate[] {
  const complete = candidatesOf(file, terms, retrieve(file, terms, false, near));
  return complete.length ? complete : candidatesOf(file, terms, retrieve(file, terms, true, near));
}

/** The candidates that documents of an import's text index make. */
function candidatesOf(file: Bundle, terms: Term[], docs: TextDocument[]): Candidate[] {
  const out: Candidate[] = [];
  const streets: StreetHit[] = [];
  for (const doc of docs) {
    const postal = doc.layer === "region" && doc.kind === "postalCode";
    // A postal code's document has its code as its area; it is what the code names.
    const text = postal ? { name: doc.area, number: "", area: "" } : doc;
    const { score: matched, missing, named, numbered } = scoreText(terms, text.name, text.number, text.area);
    if (!named) continue;
    const layer = doc.layer === "region" ? REGION_LAYERS[doc.kind ?? ""] : doc.layer;
    if (!layer) continue;
    const score = matched - penalty(missing) + LAYER_PRIOR[layer];
    if (doc.layer === "address") {
      // An address is an answer when its house number was typed.
      if (numbered.length) out.push(addressCandidate(file, doc, score, "exact"));
      continue;
    }
    if (doc.layer === "street") {
      streets.push({ doc, matched, missing, score });
      continue;
    }
    if (doc.layer === "place") {
      out.push({
        layer: "place",
        score,
        confidence: answered(missing),
        position: [doc.lng, doc.lat],
        key: `place:${doc.ref}:${file.file}`,
        fields: () => ({ placeLabel: doc.name }),
      });
      continue;
    }
    const region = features(file).regionById(doc.ref);
    if (!region) continue;
    out.push({
      layer,
      score: score + 0.1, // an imported boundary before the same town from GeoNames
      confidence: answered(missing),
      position: [doc.lng, doc.lat],
      key: `${layer}:${fold(region.name)}`,
      fields: () =>
        layer === "postalCode"
          ? { postalCode: region.code ?? region.name }
          : layer === "locality"
            ? { city: region.name }
            : layer === "county"
              ? { county: region.name }
              : layer === "state"
                ? {
                    state: region.name,
                    ...(region.code && { stateCode: region.code.replace(/^[A-Z]{2}-/, "") }),
                  }
                : {},
    });
  }
  // What each street could score with its house number found: the best few are looked along.
  const potential = (h: StreetHit) => (h.missing.some(houseNumberLike) ? h.matched + NUMBER_WEIGHT : h.score);
  streets.sort((a, b) => potential(b) - potential(a));
  const named = new Map<string, TextDocument[]>(); // the addresses of each street name and town, read once
  streets.forEach((hit, i) => {
    const candidate = streetCandidate(file, hit, i < INTERPOLATED_STREETS, named);
    if (candidate) out.push(candidate);
  });
  return out;
}

const round = (meters: number) => Math.round(meters * 10) / 10;

const COUNTRY_FIELDS = ["country", "countryCode", "countryFlag"] as const;
const STATE_FIELDS = [...COUNTRY_FIELDS, "state", "stateCode"] as const;
const COUNTY_FIELDS = [...STATE_FIELDS, "county"] as const;
/**
 * The fields of the areas around its point that an answer of a coarse layer keeps: a country's
 * answer does not name the town at its centre, nor a town's its centre's postcode.
 */
const AREA_FIELDS: Partial<Record<Layer, readonly (keyof Address)[]>> = {
  country: COUNTRY_FIELDS,
  state: STATE_FIELDS,
  county: COUNTY_FIELDS,
  locality: [...COUNTY_FIELDS, "city"],
  postalCode: [...COUNTY_FIELDS, "city", "postalCode"],
};

function areasFor(layer: Layer, areas: Partial<Address>): Partial<Address> {
  const keep = AREA_FIELDS[layer];
  if (!keep) return areas;
  return Object.fromEntries(Object.entries(areas).filter(([k]) => keep.includes(k as keyof Address)));
}

/** The imports searched by text (those made before the text index had its layout are not). */
const textFiles = () => imports().filter(hasTextIndex);

/** Addresses, streets, places and areas in each import's text index. */
const importedText: CandidateSource = ({ terms, options }) =>
  textFiles().flatMap((file) => importCandidates(file, terms, options.near));

/** Postal codes of each import. */
const importedPostcodes: CandidateSource = ({ terms }) =>
  textFiles().flatMap((file) => postcodeCandidates(file, terms));

/** The embedded countries, US states and GeoNames cities (./embedded-names.ts). */
const embeddedNames: CandidateSource = ({ text, terms, options }) =>
  embeddedCandidates(text, { ...options, prefix: options.prefix ?? false }, (name, area) => {
    const { score, missing, named } = scoreText(terms, name, "", area);
    return named ? { score: score - penalty(missing), confidence: answered(missing) } : undefined;
  }).map((c) => ({ ...c, score: c.score + LAYER_PRIOR[c.layer] }));

/** Where forward geocoding's candidates come from; a new source is one more here. */
const SOURCES: readonly CandidateSource[] = [importedText, importedPostcodes, embeddedNames];

/** Text to ranked addresses: forward geocoding (`prefix` false) and autocomplete (`prefix` true). */
export function searchText(typed: string, options: TextSearch): Address[] {
  // A US ZIP+4 ("10014-1234") is its ZIP: the four digits name a block, not a house number.
  const text = typed.replace(/\b(\d{5})-\d{4}\b/g, "$1");
  const all = imports();
  const terms = termsOf(text, options.prefix ?? false, textFiles());
  if (!terms.length) return [];
  const candidates = SOURCES.flatMap((source) => source({ text, terms, options })).filter(
    (c) => !options.layers || options.layers.includes(c.layer),
  );
  const near = options.near;
  const distanceOf = (c: Candidate) => (near ? haversine(near[0], near[1], ...c.position) : 0);
  // The bias of `near`: up to half a word for what is close, halved at 10 km.
  const bias = (c: Candidate) => (near ? 0.5 / (1 + distanceOf(c) / 10_000) : 0);
  candidates.sort((a, b) => b.score + bias(b) - (a.score + bias(a)) || distanceOf(a) - distanceOf(b));
  const seen = new Map<string, Position>();
  const out: Address[] = [];
  for (const c of candidates) {
    if (out.length >= options.limit) break;
    const same = seen.get(c.key);
    if (same && haversine(...same, ...c.position) < 20_000) continue;
    seen.set(c.key, c.position);
    const position = c.refine?.() ?? c.position;
    const areas = areasFor(c.layer, areaFieldsOf(...position, all, c.tagged?.()));
    if (options.countries && !options.countries.includes(areas.countryCode ?? "")) continue;
    const own = c.fields(areas);
    const address: Omit<Address, "formattedAddress"> = {
      ...pointFields(...position),
      ...areas,
      ...own,
      layer: c.layer,
      confidence: c.confidence,
      ...(near && { distance: round(haversine(...near, ...position)) }),
    };
    out.push(answeredAddress(address));
  }
  return out;
}
