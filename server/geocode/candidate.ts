import type { Position } from "../geo/distance";
import type { Address } from "../text/address";

/**
 * What forward geocoding and autocomplete rank (./forward.ts): candidates, each from one of the
 * candidate sources (an import's text index, an import's postcodes, the embedded names of
 * countries, US states and cities). A new source is a CandidateSource added to forward's list.
 */

export const LAYERS = [
  "address",
  "street",
  "place",
  "postalCode",
  "locality",
  "county",
  "state",
  "country",
] as const satisfies readonly Address["layer"][];
export type Layer = (typeof LAYERS)[number];

export interface TextSearch {
  /** the layers to answer with; all when absent */
  layers?: readonly Layer[];
  /** ISO 3166-1 alpha-2 codes the results must lie in */
  countries?: readonly string[];
  /** a bias: nearer results first among equally good ones, and `distance` on each */
  near?: Position;
  limit: number;
  /** autocomplete: the last word may be the start of a word */
  prefix?: boolean;
}

/** A typed word: what may satisfy it, in which column, and whether it may be a prefix. */
export interface Term {
  word: string;
  alternatives: string[];
  /** indexed words one letter away (typos), weaker matches */
  corrections: string[];
  /** "name": a figure typed as part of a street's name ("Eas 22" → East 22nd), never a house number */
  role: "number" | "postcode" | "any" | "name";
  prefix: boolean;
  /** the words of one area's name ("Andorra la Vella") share a group: missed or left out together */
  group: number;
}

/** A candidate answer before it becomes an Address. */
export interface Candidate {
  layer: Layer;
  score: number;
  position: Position;
  /** fills the Address fields that are the candidate's own (after the areas of its point) */
  fields: (areas: Partial<Address>) => Omit<Address, "formattedAddress" | "layer" | "confidence">;
  confidence: Address["confidence"];
  /** two candidates with one key are one answer (an imported town and the GeoNames one) */
  key: string;
  /** the answer's exact point, when it costs more to find than ranking needs (once chosen) */
  refine?: () => Position;
  /** an address's own `addr:country`, read once chosen: its country where no boundary is imported */
  tagged?: () => string | undefined;
}

/** What a candidate source is asked: the text as typed, its words as terms, and the search. */
export interface CandidateQuery {
  text: string;
  terms: Term[];
  options: TextSearch;
}

/** One source of forward geocoding's candidates. */
export type CandidateSource = (query: CandidateQuery) => Candidate[];
