import type { Region } from "../../regions/embedded";
import type { WirePlace } from "../../geodata/places";
import type { StoredUser } from "../../storage/users";
import type { TrackedGeofence } from "../../storage/geofences";
import type { TripWrite } from "../../storage/trips";
import type { UserWrite } from "../../storage/tracking";
import type { Band } from "../../events/confidence";
import type { Fix, Snapshot } from "../snapshot";

/**
 * One kind of event (geofences, places, regions, trips; beacons next): a pure detector that,
 * from the user before the update, the user after it, the fix and the snapshot, says what
 * happened. It may also keep state of its own on the user (`next`: its fields after the fix).
 */
export interface Detector {
  /** The user fields this kind keeps, as they are after the fix (leave it out when none). */
  next?(
    before: StoredUser | null,
    fix: Fix,
    snapshot: Snapshot,
  ): Partial<Omit<UserWrite, "actualUpdatedAt" | "updatedAt">>;
  detect(input: DetectorInput): Detected;
}

export interface DetectorInput {
  before: StoredUser | null;
  /** the user's fields after the update (every detector's `next` applied) */
  after: UserWrite;
  fix: Fix;
  snapshot: Snapshot;
}

/** An event as a detector sees it: what it is about, and how likely from geometry alone. */
export interface EventDraft {
  type: string;
  geofence?: TrackedGeofence;
  place?: WirePlace;
  alternatePlaces?: WirePlace[];
  region?: Region;
  probability: number;
  band: Band;
  /** minutes (exits) */
  duration: number | null;
  /** trip events: the trip as it is after the update (wire form) */
  trip?: unknown;
}

/** Which geofences the user enters, leaves and has now dwelled in. */
export interface MembershipChanges {
  entered: { geofenceSeq: number; enteredAt: Date }[];
  exited: number[];
  dwelled: number[];
}

export interface Detected {
  events: EventDraft[];
  memberships?: MembershipChanges;
  /** trips the update changes */
  trips?: TripWrite[];
}

/** Minutes from one time to a later one, to the hundredth (a visit's duration). */
export const minutesBetween = (from: Date, to: Date) =>
  Math.round(Math.max(0, (to.getTime() - from.getTime()) / 60_000) * 100) / 100;
