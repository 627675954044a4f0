import type { Bundle } from "../bundles/file";
import { features } from "../geodata/features";
import { type Position, haversine } from "../geo/distance";
import { processOnce } from "../process-once";
import { type Candidate, type Term } from "./candidate";
import { fold } from "../text/normalize";
import { LAYER_PRIOR, scoreText, answered, penalty } from "./scoring";
import { isNumeric } from "./terms";

/**
 * Postcodes as candidates: each import's postcodes with the middle of their addresses, read
 * once per import, answered when a query names one.
 */

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
export function postcodeCandidates(file: Bundle, terms: Term[]): Candidate[] {
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
