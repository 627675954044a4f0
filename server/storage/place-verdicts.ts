import type { BBox } from "../geo/distance";
import { trackingPart } from "./tracking";

/* Place verdicts: what staff said of earlier place events, as place detection reads it. */

/** A verdict on an earlier place event (it steers place detection there). */
export interface PlaceVerdict {
  placeId: string | null;
  verifiedPlaceId: string | null;
  verification: number;
}

/** What the place events read inside an update's transaction (they write only the user's place). */
export interface PlaceTrackingReader {
  /** Verdicts on place events of one world located in `box`. */
  placeVerdictsInBox(live: boolean, box: BBox): Promise<PlaceVerdict[]>;
}

export const PLACE_TRACKING = trackingPart<PlaceTrackingReader, never>("places");
