import { type WirePlace, distanceToPlace, serializePlace } from "../../geodata/places";
import type { StoredUser } from "../../storage/users";
import type { UserWrite } from "../../storage/tracking";
import { LEAVE_AT_M } from "../places";
import type { Fix, Snapshot } from "../snapshot";
import { type Detector, type EventDraft, minutesBetween } from "./types";

interface PlaceChange {
  place: WirePlace | null;
  enteredAt: Date | null;
  exit?: EventDraft;
  enter?: EventDraft;
}

/**
 * Where the user is now as far as places go (../places.ts): a stopped user at a different place
 * than before leaves the old one and enters the new one; a user farther than 100 m (beyond its
 * accuracy) from its place leaves it.
 */
function placeChange(before: StoredUser | null, fix: Fix, snapshot: Snapshot): PlaceChange {
  const { longitude: lng, latitude: lat, accuracy, at } = fix;
  const current = (before?.place as WirePlace | null | undefined) ?? null;
  const since = before?.placeEnteredAt ?? null;
  const { detection, currentPlace } = snapshot;
  const beyond = current ? (currentPlace ? distanceToPlace(lng, lat, currentPlace) - accuracy : Infinity) : 0;
  const leaving = !!current && (beyond > LEAVE_AT_M || (!!detection && detection.place.oid !== current._id));
  const exit: EventDraft | undefined =
    current && leaving
      ? {
          type: "user.exited_place",
          place: current,
          duration: since ? minutesBetween(since, at) : 0,
          // Sure when far beyond the accuracy or stopped at another place; less so otherwise.
          probability: beyond > 2 * LEAVE_AT_M || detection ? 1 : 0.8,
          band: "core",
        }
      : undefined;
  if (detection && (!current || leaving)) {
    const place = serializePlace(detection.place);
    return {
      place,
      enteredAt: at,
      exit,
      enter: {
        type: "user.entered_place",
        place,
        alternatePlaces: detection.alternates.map(serializePlace),
        probability: detection.probability,
        band: "core",
        duration: null,
      },
    };
  }
  if (leaving) return { place: null, enteredAt: null, exit };
  return { place: current, enteredAt: since };
}

/** Place entries and exits of stopped users (docs/confidence.md#place-events). */
export const places: Detector = {
  next(before, fix, snapshot): Partial<UserWrite> {
    const { place, enteredAt } = placeChange(before, fix, snapshot);
    return { place: place as UserWrite["place"], placeEnteredAt: enteredAt };
  },
  detect({ before, fix, snapshot }) {
    const { exit, enter } = placeChange(before, fix, snapshot);
    // The exit before the entry.
    return { events: [exit, enter].filter((e) => e !== undefined) };
  },
};
