import type { Bundle } from "../bundles/file";
import { features } from "../geodata/features";
import { type TextDocument, matchDocuments } from "./text-index";
import { type Position, bboxAround, haversine } from "../geo/distance";
import { nearestOnPath } from "../geo/polygon";
import { positionsOf } from "../geo/rings";
import { type Address, addressLabel } from "../text/address";
import { type Candidate, type Term } from "./candidate";
import { fold, nameKey, words } from "../text/normalize";
import { quote } from "./text-query";
import { NUMBER_WEIGHT, LAYER_PRIOR, tokenSet, penalty } from "./scoring";
import { isNumeric, houseNumberLike } from "./terms";

/**
 * House numbers on streets (./forward.ts, step 3): an address candidate, and a street whose
 * number was asked for placed between the known numbers around it (`interpolated`).
 */

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

export function addressCandidate(
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
export const INTERPOLATED_STREETS = 5;

export interface StreetHit {
  doc: TextDocument;
  matched: number;
  missing: Term[];
  score: number;
}

/**
 * A street as an answer: where a house number was asked for and not matched, the address found
 * along it (exact or interpolated) when `interpolateIt`, else the street itself.
 */
export function streetCandidate(
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
