/**
 * Text as forward geocoding and autocomplete compare it (docs/geocoding.md): the same rules for
 * what is indexed and what is typed, so "Landstr. 12", "landstrasse 12" and "Landstraße 12" meet.
 * Pure functions, no I/O.
 */

/** Letters that NFKD does not take apart into a base letter and a mark. */
const LETTERS: Record<string, string> = {
  ß: "ss",
  ẞ: "ss",
  æ: "ae",
  œ: "oe",
  ø: "o",
  ł: "l",
  đ: "d",
  ð: "d",
  þ: "th",
  ı: "i",
};

/** German (and Swiss) spelling without umlauts: "Zürich" is also written "Zuerich". */
const UMLAUTS: Record<string, string> = { ä: "ae", ö: "oe", ü: "ue" };

/**
 * Abbreviations people type, to the word the data spells out (OpenStreetMap names are written
 * in full). A token can stand for several words ("st": street or saint): all are tried.
 */
const ABBREVIATIONS: Record<string, string[]> = {
  // English
  st: ["street", "saint"],
  str: ["strasse", "street"],
  ave: ["avenue"],
  av: ["avenue", "avinguda"],
  rd: ["road"],
  blvd: ["boulevard"],
  bd: ["boulevard"],
  dr: ["drive"],
  ln: ["lane"],
  ct: ["court"],
  pl: ["place", "platz", "placa", "plaza"],
  sq: ["square"],
  hwy: ["highway"],
  mt: ["mount"],
  ft: ["fort"],
  n: ["north"],
  s: ["south"],
  e: ["east"],
  w: ["west"],
  ter: ["terrace"],
  pkwy: ["parkway"],
  // German
  g: ["gasse"],
  // French
  r: ["rue"],
  rte: ["route"],
  ch: ["chemin"],
  // Catalan, Spanish
  c: ["carrer", "calle"],
  ctra: ["carretera"],
  avda: ["avinguda", "avenida"],
};

/**
 * US street words the data may hold abbreviated (some imports, TIGER-derived names): a typed full
 * word also finds its abbreviation, so "West 4th Street" finds "W 4th St" as well as the reverse.
 */
const US_SHORT_FORMS: Record<string, string> = {
  street: "st",
  avenue: "ave",
  boulevard: "blvd",
  place: "pl",
  lane: "ln",
  court: "ct",
  terrace: "ter",
  parkway: "pkwy",
  road: "rd",
  drive: "dr",
  north: "n",
  south: "s",
  east: "e",
  west: "w",
};

/** Ordinal numbers as words and as figures ("First Avenue", "1st Avenue"): each finds the other. */
const ORDINALS = [
  "first",
  "second",
  "third",
  "fourth",
  "fifth",
  "sixth",
  "seventh",
  "eighth",
  "ninth",
  "tenth",
  "eleventh",
  "twelfth",
];
const SUFFIX = (n: number) =>
  n % 100 >= 11 && n % 100 <= 13 ? "th" : (["th", "st", "nd", "rd"][n % 10] ?? "th");
const ORDINAL_FORMS: Record<string, string> = Object.fromEntries(
  ORDINALS.flatMap((word, i) => {
    const figure = `${i + 1}${SUFFIX(i + 1)}`;
    return [
      [word, figure],
      [figure, word],
    ];
  }),
);

/** German street words that end compounds: "Landstr." is "Landstrasse", also sought as "Land strasse". */
const COMPOUND_ENDINGS = ["strasse", "gasse", "weg", "platz", "allee", "ring"];

/** Lower case, without accents, ß as ss; umlauts as plain vowels (the `ue` spelling is a variant). */
export function fold(text: string): string {
  return text
    .toLowerCase()
    .replace(/[ßẞæœøłđðþı]/g, (c) => LETTERS[c] ?? c)
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "");
}

/** The words of a text, folded; digits stay with their letters ("12a"). */
export function words(text: string): string[] {
  return fold(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** A text with its umlauts spelled out ("Zürich" → "zuerich"), before folding. */
const spelledOut = (text: string) => text.toLowerCase().replace(/[äöü]/g, (c) => UMLAUTS[c]!);

/** The extra spellings of a word as the data may hold it: the `ue` form of umlauts. */
function spellings(raw: string): string[] {
  return /[äöü]/i.test(raw) ? words(spelledOut(raw)) : [];
}

/** A whole name folded, and folded with its umlauts spelled out when it has any (one or two forms). */
export function foldings(name: string): string[] {
  return [...new Set([fold(name), fold(spelledOut(name))])];
}

/** "landstr" → "landstrasse"; "landstrasse" → ["land", "strasse"] as well. */
function compound(word: string): string[] {
  if (word.length > 4 && word.endsWith("str")) return [`${word}asse`, word.slice(0, -3), "strasse"];
  for (const ending of COMPOUND_ENDINGS) {
    if (word.length > ending.length + 2 && word.endsWith(ending))
      return [word.slice(0, -ending.length), ending];
  }
  return [];
}

/**
 * The tokens a text is indexed under: its words, and for German compounds and umlauts the other
 * ways people write them. Order and duplicates do not matter to the index.
 */
export function indexTokens(text: string): string[] {
  const out = new Set<string>();
  for (const raw of text.split(/\s+/)) {
    for (const w of [...words(raw), ...spellings(raw)]) {
      out.add(w);
      for (const part of compound(w)) out.add(part);
    }
  }
  return [...out];
}

/**
 * What a typed query asks for: one entry per word typed, each the set of tokens that satisfy it
 * (the word itself, what its abbreviation stands for, a German compound's full form).
 */
export function queryTerms(text: string): string[][] {
  return words(text).map((w) => {
    const alternatives = new Set([w, ...(ABBREVIATIONS[w] ?? [])]);
    if (US_SHORT_FORMS[w]) alternatives.add(US_SHORT_FORMS[w]);
    if (ORDINAL_FORMS[w]) alternatives.add(ORDINAL_FORMS[w]);
    if (w.length > 4 && w.endsWith("str")) alternatives.add(`${w}asse`);
    return [...alternatives];
  });
}

/**
 * A name as a key for comparing spellings of one name: folded, without spaces or punctuation
 * ("Schaaner Strasse", "Schaanerstrasse" and "Schaaner-Strasse" are one street).
 */
export function nameKey(name: string): string {
  return words(name).join("");
}
