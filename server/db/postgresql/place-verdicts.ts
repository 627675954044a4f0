import { PLACE_TRACKING, type PlaceVerdict } from "../../storage/place-verdicts";
import { rows } from "./sql";
import { pgPart } from "./tracking-part";

/* Place verdicts: the place events' part of tracking (they read verdicts, and write nothing of their own). */

export const placeTracking = pgPart({
  part: PLACE_TRACKING,
  reader: ({ client }) => ({
    placeVerdictsInBox: (live, box) =>
      rows<PlaceVerdict>(
        `SELECT "placeId", "verifiedPlaceId", "verification" FROM "Event"
         WHERE "type" = 'user.entered_place' AND "live" = $1 AND "latitude" BETWEEN $2 AND $3
           AND "longitude" BETWEEN $4 AND $5 AND ("verification" != 0 OR "verifiedPlaceId" IS NOT NULL)`,
        [live, box.minLat, box.maxLat, box.minLng, box.maxLng],
        client,
      ),
  }),
});
