import AddressParser from "pelias-parser/parser/AddressParser";
import Tokenizer from "pelias-parser/tokenization/Tokenizer";
import { processOnce } from "../process-once";
import { words } from "../text/normalize";

/**
 * What an address query says, as pelias-parser reads it (docs/geocoding.md#parsing): the house
 * number, the postcode, the street, the locality… Forward geocoding uses it as a hint about which
 * typed word is a house number and which a postcode; every word is still matched against the
 * index, so a wrong or missing parse costs ranking, not results.
 */
export interface ParsedQuery {
  /** folded words labelled as a house number */
  housenumber: Set<string>;
  /** folded words labelled as a postcode */
  postcode: Set<string>;
  /** the parts as labelled, as typed (locality, street, venue, region, country…) */
  parts: Partial<Record<string, string>>;
  /** the folded words of each area named (locality, region, country): "Andorra la Vella" is one */
  areas: string[][];
}

const AREA_LABELS = new Set(["locality", "dependency", "region", "country"]);

/** The parser loads dictionaries for about a second: once per process, at start (instrumentation.ts). */
const parser = () => processOnce("address-parser", () => new AddressParser(), "the address parser");

export function preloadAddressParser(): void {
  parser();
}

export function parseAddress(text: string): ParsedQuery {
  const tokenizer = new Tokenizer(text);
  const p = parser();
  p.classify(tokenizer);
  p.solve(tokenizer);
  const parsed: ParsedQuery = { housenumber: new Set(), postcode: new Set(), parts: {}, areas: [] };
  for (const { classification, span } of tokenizer.solution[0]?.pair ?? []) {
    const label = classification.label;
    parsed.parts[label] ??= span.body;
    if (label === "housenumber" || label === "postcode") {
      for (const w of words(span.body)) parsed[label].add(w);
    }
    if (AREA_LABELS.has(label)) parsed.areas.push(words(span.body));
  }
  return parsed;
}
