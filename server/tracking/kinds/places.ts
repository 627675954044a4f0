import { bboxAround } from "../../geo/distance";
import { type WirePlace, distanceToPlace, placeById, serializePlace } from "../../geodata/places";
import { eventSubject } from "../../events/subject";
import { PLACE_TRACKING } from "../../storage/place-verdicts";
import type { UserWrite } from "../../storage/tracking";
import type { StoredUser } from "../../storage/users";
import type { Fix } from "../fix";
import { type Detection, LEAVE_AT_M, VERDICT_RADIUS_M, detectPlace, placeEvidence } from "../places";
import { type EventDraft, type Kind, type Update, minutesBetween } from "./kind";

export interface PlaceState {
  /** the place a stopped user is at (none when moving, or no place is near) */
  detection?: Detection;
  /** the place the user was at, as the imports hold it now (none: no place, or gone) */
  currentPlace?: Detection["place"];
}

interface PlaceChange {
  place: WirePlace | null;
  enteredAt: Date | null;
  exit?: EventDraft;
  enter?: EventDraft;
}

/** The place the fix is at (when stopped), steered by verdicts near it; and where the user's place is now. */
async function placesAt(
  { read, key, fix }: Update,
  place: WirePlace | null | undefined,
): Promise<PlaceState> {
  let detection: Detection | undefined;
  if (fix.stopped) {
    const box = bboxAround(fix.longitude, fix.latitude, VERDICT_RADIUS_M);
    const verdicts = await read.part(PLACE_TRACKING).placeVerdictsInBox(key.live, box);
    detection = detectPlace(fix.accuracy, placeEvidence(fix.longitude, fix.latitude, fix.accuracy, verdicts));
  }
  return { detection, currentPlace: place?._id ? placeById(place._id) : undefined };
}

const placeEvent = (
  type: string,
  place: WirePlace,
  e: Omit<EventDraft, "type" | "about" | "subject">,
): EventDraft => ({
  type,
  about: { placeId: place._id, place: place as EventDraft["about"]["place"] },
  subject: eventSubject({ placeId: place._id }),
  ...e,
});

/**
 * Where the user is now as far as places go (../places.ts): a stopped user at a different place
 * than before leaves the old one and enters the new one; a user farther than 100 m (beyond its
 * accuracy) from its place leaves it.
 */
function placeChange(before: StoredUser | null, fix: Fix, state: PlaceState): PlaceChange {
  const { longitude: lng, latitude: lat, accuracy, at } = fix;
  const current = (before?.place as WirePlace | null | undefined) ?? null;
  const since = before?.placeEnteredAt ?? null;
  const { detection, currentPlace } = state;
  const beyond = current ? (currentPlace ? distanceToPlace(lng, lat, currentPlace) - accuracy : Infinity) : 0;
  const leaving = !!current && (beyond > LEAVE_AT_M || (!!detection && detection.place.oid !== current._id));
  const exit =
    current && leaving
      ? placeEvent("user.exited_place", current, {
          duration: since ? minutesBetween(since, at) : 0,
          // Sure when far beyond the accuracy or stopped at another place; less so otherwise.
          probability: beyond > 2 * LEAVE_AT_M || detection ? 1 : 0.8,
          band: "core",
        })
      : undefined;
  if (detection && (!current || leaving)) {
    const place = serializePlace(detection.place);
    const enter = placeEvent("user.entered_place", place, {
      probability: detection.probability,
      band: "core",
      duration: null,
    });
    enter.about.alternatePlaces = detection.alternates.map(
      serializePlace,
    ) as EventDraft["about"]["alternatePlaces"];
    return { place, enteredAt: at, exit, enter };
  }
  if (leaving) return { place: null, enteredAt: null, exit };
  return { place: current, enteredAt: since };
}

/** Place entries and exits of stopped users (docs/confidence.md#place-events); the user keeps its place. */
export const places: Kind<PlaceState> = {
  name: "places",
  parts: [PLACE_TRACKING],
  load: (u) => placesAt(u, u.before?.place as WirePlace | null | undefined),
  async sent(u, input) {
    const found = input.placeId ? placeById(input.placeId) : undefined;
    const place = found ? serializePlace(found) : null;
    return { state: await placesAt(u, place), before: { place: place as UserWrite["place"] } };
  },
  next(before, fix, state): Partial<UserWrite> {
    const { place, enteredAt } = placeChange(before, fix, state);
    return { place: place as UserWrite["place"], placeEnteredAt: enteredAt };
  },
  detect({ before, fix }, state) {
    const { exit, enter } = placeChange(before, fix, state);
    // The exit before the entry.
    return { events: [exit, enter].filter((e) => e !== undefined) };
  },
};
