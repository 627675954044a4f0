import type { Bundle } from "../bundles/file";
import { textTokens } from "./text-index";
import { processOnce } from "../process-once";
import { type Term } from "./candidate";
import { queryTerms, words } from "../text/normalize";
import { parseAddress } from "./parse";
import { TypoIndex } from "./typos";

/**
 * A forward query's words as terms (./forward.ts, step 1): each word with the alternatives it may
 * stand for, its role (house number, postcode, name) read by pelias-parser, partly typed
 * directions, and one-letter corrections of words no import knows.
 */

export const isNumeric = (word: string) => /\d/.test(word);

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
export const houseNumberLike = (t: Term) => isNumeric(t.word) && t.role !== "postcode" && t.role !== "name";

/** A direction, whole, short, or (3 letters or more) in part. */
const isDirection = (word: string) =>
  DIRECTIONS.some(([whole, short]) => word === short || (word.length >= 3 && whole.startsWith(word)));

/** The words of a query as terms, with their roles from the parse. */
export function termsOf(text: string, prefix: boolean, files: Bundle[]): Term[] {
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
