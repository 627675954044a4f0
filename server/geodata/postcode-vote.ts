import type KDBush from "kdbush";
import { around } from "geokdbush";
import { type BBox, bboxAround, haversine } from "../geo/distance";

/** The postcodes of an import's addresses, indexed by point (GeodataFile.postcodePoints). */
export interface PostcodePoints {
  index: KDBush;
  /** distinct postcodes */
  codes: string[];
  /** by the index's item id: each address's postcode (a position in `codes`) and point */
  codeOf: Uint32Array;
  lngs: Float32Array;
  lats: Float32Array;
  /** by the index's item id: the town (the imported city boundary) the address lies in, or undefined */
  townOf: (string | undefined)[];
  /** the bounding box of these addresses */
  extent: BBox;
}

/**
 * The postcode of a point from addresses' postcodes (server/geodata/postcodes.ts): the three
 * nearest addresses vote, the nearer the stronger, so a single mistagged address does not carve
 * a hole in its neighbours' area. Beyond POSTCODE_REACH_M from every address: none. A point in a
 * town (an imported city boundary) hears only that town's addresses: a postcode does not cross a
 * town's line, let alone a country's (Monaco's 98000 is not La Turbie's, 300 m away in France).
 * Pure: the server asks it over every import, the import over its own addresses (the text index).
 */

export const POSTCODE_REACH_M = 3000;
/** Three vote, so that one mistagged address among two neighbours is outvoted... */
const VOTERS = 3;
/** ...with weight 1 / (d + 50 m)²: GPS and mapping are not exact, so a few meters nearer is no reason. */
const SOFTEN_M = 50;

const overlaps = (a: BBox, b: BBox) =>
  a.minLng <= b.maxLng && a.maxLng >= b.minLng && a.minLat <= b.maxLat && a.maxLat >= b.minLat;

export function votePostcode(
  sets: Iterable<PostcodePoints>,
  lng: number,
  lat: number,
  town?: string,
): string | undefined {
  const reach = bboxAround(lng, lat, POSTCODE_REACH_M);
  const near: { code: string; d: number }[] = [];
  for (const points of sets) {
    if (!overlaps(points.extent, reach)) continue;
    const sameTown = town === undefined ? undefined : (i: number) => points.townOf[i] === town;
    for (const i of around(points.index, lng, lat, VOTERS, POSTCODE_REACH_M / 1000, sameTown) as number[]) {
      const d = haversine(lng, lat, points.lngs[i]!, points.lats[i]!);
      near.push({ code: points.codes[points.codeOf[i]!]!, d });
    }
  }
  if (!near.length) return undefined;
  const votes = new Map<string, number>();
  for (const a of near.sort((x, y) => x.d - y.d).slice(0, VOTERS)) {
    votes.set(a.code, (votes.get(a.code) ?? 0) + 1 / (a.d + SOFTEN_M) ** 2);
  }
  return [...votes].sort((a, b) => b[1] - a[1])[0]![0];
}
