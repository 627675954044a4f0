import type { PostcodePoints } from "./postcode-vote";
import { features } from "./features";
import { votePostcode } from "./postcode-vote";
import { imports } from "../bundles/folder";

export { POSTCODE_REACH_M } from "./postcode-vote";

/**
 * The postcode of a point from imported addresses, for extracts that have no postal-code
 * boundaries but whose addresses carry `addr:postcode` (most of Europe's, Liechtenstein's
 * among them). The area of a postcode is taken to be where its addresses are nearest
 * (server/geodata/postcode-vote.ts), among the addresses of the point's town when it has one.
 */
export function postcodeFromAddresses(lng: number, lat: number, town?: string): string | undefined {
  const sets = imports()
    .map((file) => features(file).postcodePoints())
    .filter((p): p is PostcodePoints => p !== null);
  return votePostcode(sets, lng, lat, town);
}
