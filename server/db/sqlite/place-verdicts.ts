import type { BBox } from "../../geo/distance";
import { PLACE_TRACKING, type PlaceVerdict } from "../../storage/place-verdicts";
import { prepared } from "./connection";
import { sqlitePart } from "./tracking-part";

/* Place verdicts: the place events' part of tracking (they read verdicts, and write nothing of their own). */

/**
 * Verdicts on place events of one world whose location lies in `box` (they steer place
 * detection there, server/tracking/places.ts).
 */
export function placeVerdictsInBox(live: boolean, box: BBox): PlaceVerdict[] {
  return prepared(
    `SELECT "placeId", "verifiedPlaceId", "verification" FROM "Event" INDEXED BY "Event_place_verdicts_idx"
     WHERE "type" = 'user.entered_place' AND "live" = ? AND "latitude" BETWEEN ? AND ?
       AND "longitude" BETWEEN ? AND ? AND ("verification" != 0 OR "verifiedPlaceId" IS NOT NULL)`,
  ).all(live ? 1 : 0, box.minLat, box.maxLat, box.minLng, box.maxLng) as PlaceVerdict[];
}

export const placeTracking = sqlitePart({
  part: PLACE_TRACKING,
  reader: { placeVerdictsInBox: async (live, box) => placeVerdictsInBox(live, box) },
});
