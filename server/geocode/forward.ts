import type { Bundle } from "../bundles/file";
import { features } from "../geodata/features";
import { type TextDocument, hasTextIndex } from "./text-index";
import { type Position, haversine } from "../geo/distance";
import { imports } from "../bundles/folder";
import { type Address, answeredAddress, pointFields } from "../text/address";
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
import { fold } from "../text/normalize";
import { NUMBER_WEIGHT, LAYER_PRIOR, scoreText, answered, penalty } from "./scoring";
import { houseNumberLike, termsOf } from "./terms";
import { retrieve } from "./full-text";
import { postcodeCandidates } from "./postcodes";
import { addressCandidate, INTERPOLATED_STREETS, type StreetHit, streetCandidate } from "./interpolation";

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

/** A region document's layer (imported boundaries); DMAs are not geocoding answers. */
const REGION_LAYERS: Record<string, Layer> = {
  country: "country",
  state: "state",
  county: "county",
  city: "locality",
  postalCode: "postalCode",
};

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
