import countries from "i18n-iso-countries";
import type { Position } from "../geo/distance";
import { citiesNamed } from "../regions/cities";
import { usStateNames } from "../regions/us-states";
import { countryCenter } from "../regions/embedded";
import type { Candidate } from "./candidate";
import { processOnce } from "../process-once";
import { fold, foldings, words } from "../text/normalize";

/**
 * Geocoding without an import (docs/geocoding.md#worldwide): the embedded GeoNames cities,
 * Natural Earth countries and US states, found by the words typed. A run of consecutive words
 * ("Andorra la Vella", "New York") is looked up as a whole name.
 */

/** The languages a country's name is also recognised in. */
const COUNTRY_LANGUAGES = ["en", "de", "fr", "es", "it", "pt", "nl", "ca"];
const stateCodes = () =>
  processOnce(
    "state-codes-by-folded-name",
    () => new Map(Object.entries(usStateNames()).map(([code, name]) => [fold(name), code])),
  );

/** The longest run of words looked up as one name. */
const MAX_NAME_WORDS = 4;

/**
 * Scores a candidate's name and area against the typed words, with the confidence of answering
 * it; undefined: not a candidate.
 */
type Scorer = (
  name: string,
  area: string,
) => { score: number; confidence: Candidate["confidence"] } | undefined;

/**
 * A city of millions before a state of its name ("New York": the city of 8 million people, as
 * Pelias ranks by population and layer), not before a country ("Mexico").
 */
const METROPOLIS = 5_000_000;
const METROPOLIS_PRIOR = 0.04;

/** Runs of up to MAX_NAME_WORDS consecutive words, with whether they end at the last word. */
function runs(typed: string[]): { text: string; last: boolean }[] {
  const out: { text: string; last: boolean }[] = [];
  for (let i = 0; i < typed.length; i++) {
    for (let j = i + 1; j <= Math.min(typed.length, i + MAX_NAME_WORDS); j++) {
      const run = typed.slice(i, j);
      if (run.every((w) => /\d/.test(w))) continue;
      out.push({ text: run.join(" "), last: j === typed.length });
    }
  }
  return out;
}

/** Countries by their folded names (official and alternative, in COUNTRY_LANGUAGES), built once. */
const countryCodes = () =>
  processOnce("country-names", () => {
    const byName = new Map<string, string>();
    for (const language of COUNTRY_LANGUAGES) {
      for (const [code, names] of Object.entries(countries.getNames(language, { select: "all" }))) {
        for (const name of names)
          for (const folded of foldings(name)) if (!byName.has(folded)) byName.set(folded, code);
      }
    }
    return byName;
  });

const countryCode = (name: string) => countryCodes().get(name);

/** Cities, countries and US states named by the text, scored like the imports' candidates. */
export function embeddedCandidates(
  text: string,
  options: { prefix: boolean; limit: number; countries?: readonly string[] },
  score: Scorer,
): Candidate[] {
  const { prefix, limit } = options;
  const inCountries = options.countries ?? [undefined];
  const typed = words(text);
  const open = prefix && /[\p{L}\p{N}]$/u.test(text);
  const out: Candidate[] = [];
  const cityIds = new Set<string>();
  for (const run of runs(typed)) {
    const asPrefix = open && run.last;
    // A whole name is also the city named with it and "City" (GeoNames' "New York City").
    const names = asPrefix ? [run.text] : [run.text, `${run.text} city`];
    const cities = inCountries.flatMap((countryCode) =>
      names.flatMap((name) =>
        citiesNamed(name, {
          prefix: asPrefix,
          limit: Math.max(limit, 20),
          ...(countryCode && { countryCode }),
        }),
      ),
    );
    for (const city of cities) {
      const id = `${city.countryCode}:${city.name}:${city.lng}:${city.lat}`;
      if (cityIds.has(id)) continue;
      cityIds.add(id);
      const us = city.countryCode === "US";
      const stateName = us ? usStateNames()[city.adminCode] : undefined;
      const area = [
        stateName,
        us ? city.adminCode : "",
        countries.getName(city.countryCode, "en"),
        city.countryCode,
      ].join(" ");
      const s = score(city.name, area);
      if (s === undefined) continue;
      // Among towns of one name, the bigger first (at most a tenth of a word).
      const size =
        0.1 * Math.min(1, Math.log10(city.population + 1) / 7) +
        (city.population >= METROPOLIS ? METROPOLIS_PRIOR : 0);
      out.push({
        layer: "locality",
        score: s.score + size,
        confidence: s.confidence,
        position: [city.lng, city.lat],
        key: `locality:${fold(city.name)}`,
        fields: () => ({ city: city.name }),
      });
    }
    if (asPrefix) continue;
    const country = countryCode(run.text);
    const countryPoint = country && countryCenter(country);
    if (country && countryPoint) {
      const s = score(run.text, "");
      if (s !== undefined) out.push(area("country", s, countryPoint, `country:${country}`));
    }
    const state = stateCodes().get(run.text);
    const statePoint = state && countryCenter(state, "states");
    if (state && statePoint) {
      const s = score(run.text, "");
      if (s !== undefined) {
        const name = usStateNames()[state] ?? run.text;
        out.push({
          ...area("state", s, statePoint, `state:${fold(name)}`),
          fields: () => ({ state: name, stateCode: state }),
        });
      }
    }
  }
  return out;
}

function area(
  layer: "country" | "state",
  scored: { score: number; confidence: Candidate["confidence"] },
  position: Position,
  key: string,
): Candidate {
  return { layer, ...scored, position, key, fields: () => ({}) };
}
